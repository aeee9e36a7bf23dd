import { describe, expect, it } from 'vitest';
import { fetchWithHttpErrors, httpErrorText, nonJsonFailure } from './errors';

// The product spec's error catalogue: a non-success answer that is not JSON reads '{status}: {body}', or the status
// text when the body is empty.
describe('non-JSON error answers', () => {
  it.each([
    [502, 'Bad Gateway', 'upstream down', '502: upstream down'],
    [503, 'Service Unavailable', '', '503: Service Unavailable'],
    [500, 'Internal Server Error', '  \n', '500: Internal Server Error'],
    [504, '', '', '504: 504'],
  ])('%s %s with body %j reads %j', (status, statusText, body, text) => {
    expect(httpErrorText(status, statusText, body)).toBe(text);
  });

  it('cuts a long body (an HTML error page) at 200 characters', () => {
    const text = httpErrorText(502, 'Bad Gateway', `<html>${'x'.repeat(500)}</html>`);
    expect(text.startsWith('502: <html>xxx')).toBe(true);
    expect(text.length).toBe('502: '.length + 200);
    expect(text.endsWith('\u2026')).toBe(true);
  });

  it('leaves successes and JSON error answers to their readers', async () => {
    expect(await nonJsonFailure(new Response('{"a":1}', { status: 200 }))).toBeUndefined();
    expect(await nonJsonFailure(new Response('plain ok', { status: 200, headers: { 'content-type': 'text/plain' } }))).toBeUndefined();
    const json = new Response('{"message":"Bad input"}', { status: 400, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(await nonJsonFailure(json)).toBeUndefined();
    const html = new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    expect((await nonJsonFailure(html))?.message).toBe('502: <h1>Bad gateway</h1>');
    const empty = new Response(null, { status: 503, statusText: 'Service Unavailable' });
    expect((await nonJsonFailure(empty))?.message).toBe('503: Service Unavailable');
  });

  it('the tRPC link’s fetch throws that text and passes everything else through', async () => {
    const server = (await import('node:http')).createServer((req, res) => {
      if (req.url === '/plain') res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/plain' }).end('proxy says no');
      else res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"nope"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await expect(fetchWithHttpErrors(`http://127.0.0.1:${port}/plain`)).rejects.toThrow('502: proxy says no');
      expect((await fetchWithHttpErrors(`http://127.0.0.1:${port}/json`)).status).toBe(400);
    } finally {
      server.close();
    }
  });
});
