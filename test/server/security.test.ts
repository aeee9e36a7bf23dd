import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { socketFrameLimit } from '../../src/server/http/socketFlood.js';
import { colorSchemeScript } from '../../src/shared/colorSchemeScript.js';
import { chatTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The headers every answer carries, the session cookie's flags, and the bounds on what one client
// may send. (Brute force on login and the access key: see auth.test.ts.)

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', MODEL_DAILY_QUOTA: '0' });
}, 120_000);
afterAll(async () => {
  await server.stop();
});

// The one inline script the CSP allows, by its hash: the stored colour scheme applied before the
// first paint.
const colorSchemeHash = `'sha256-${crypto.createHash('sha256').update(colorSchemeScript).digest('base64')}'`;

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((part) => part.trim().split(/\s+/)).filter((p) => p[0]).map(([name, ...values]) => [name!, values]));
}

describe('security headers', () => {
  it.each(['/', '/app', '/api/chats', '/healthz'])('%s carries a strict CSP and the usual protections', async (path) => {
    const res = await fetch(server.url + path);
    const csp = directives(res.headers.get('content-security-policy') ?? '');
    expect(csp.get('script-src')).toEqual(["'self'", colorSchemeHash]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it.each(['/', '/app', '/login', '/no-such-page'])('serves %s with no inline script but the colour scheme one, whose hash the CSP names', async (path) => {
    const res = await fetch(server.url + path);
    const html = await res.text();
    if (res.status === 503) return; // the client is not built in this run: nothing to serve
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes, body]) => !/\bsrc=/.test(attributes!) || body!.trim());
    expect(inline.map(([, , body]) => body)).toEqual([colorSchemeScript]);
    const hash = `'sha256-${crypto.createHash('sha256').update(inline[0]![2]!).digest('base64')}'`;
    expect(directives(res.headers.get('content-security-policy') ?? '').get('script-src')).toContain(hash);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax and scoped to the site; Secure behind HTTPS', async () => {
    const plain = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username: 'cookie_plain', password: 'secret123', fullName: 'Cookie Plain' }),
    });
    const secure = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ username: 'cookie_secure', password: 'secret123', fullName: 'Cookie Secure' }),
    });
    for (const res of [plain, secure]) {
      expect(res.status).toBe(201);
      const cookies = res.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
        expect(cookie).toMatch(/;\s*Path=\//i);
        expect(cookie).not.toMatch(/;\s*Domain=/i);
      }
    }
    expect(plain.headers.getSetCookie().some((c) => /;\s*Secure/i.test(c))).toBe(false);
    expect(secure.headers.getSetCookie().every((c) => /;\s*Secure/i.test(c))).toBe(true);
  });
});

describe('bounds on one client', () => {
  async function openChatSocket(http: HttpClient) {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: http.cookieHeader, origin: server.url } });
    const frames: Array<{ type: string; message?: string }> = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.once('open', resolve));
    return { ws, frames, closed };
  }

  it('closes a /ws connection that floods messages, after telling it why', async () => {
    const { http } = await signUp(server.url, 'flooder');
    const socket = await openChatSocket(http);
    for (let i = 0; i <= socketFrameLimit.frames + 5; i++) socket.ws.send(JSON.stringify({ type: 'get_messages', chatId: 999_999 }));
    expect(await socket.closed).toBe(1008);
    expect(socket.frames.map((f) => f.message)).toContain(chatTexts.socketFlood);
  });

  it('keeps a /ws connection that sends at a human pace', async () => {
    const { http } = await signUp(server.url, 'calm');
    const socket = await openChatSocket(http);
    for (let i = 0; i < 10; i++) socket.ws.send(JSON.stringify({ type: 'get_messages', chatId: 999_999 }));
    // Every message answered (a flood would be told, then closed, before the answers ran out).
    await eventually(() => socket.frames.length >= 10);
    expect(socket.frames.map((f) => f.message)).not.toContain(chatTexts.socketFlood);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close();
  });

  it('closes a /ws connection that sends a frame over 64 KB', async () => {
    const { http } = await signUp(server.url, 'big_frame');
    const socket = await openChatSocket(http);
    socket.ws.send(JSON.stringify({ type: 'chat_message', chatId: 1, content: 'x'.repeat(70_000) }));
    expect(await socket.closed).toBe(1009);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('closes a tRPC WebSocket that floods messages', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/trpc`, { headers: { origin: server.url } });
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    for (let i = 0; i <= socketFrameLimit.frames + 5; i++) ws.send(JSON.stringify({ id: i, method: 'query', params: { path: 'auth.session' } }));
    expect(await closed).toBe(1008);
  });

  it('closes a tRPC WebSocket that sends a frame over 1 MB', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/trpc`, { headers: { origin: server.url } });
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(1_100_000));
    expect(await closed).toBe(1009);
  });

  it('answers 413 to a signed-in REST body over 100 KB and tRPC body over 1 MB, and 401 unread without a session', async () => {
    // Without a session a body over 100 KB is refused before it is read (largeBodies.test.ts).
    expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'a', password: 'x'.repeat(150_000) })).status).toBe(401);
    const { http } = await signUp(server.url, 'bulky');
    expect((await http.post('/api/chats', { title: 'x'.repeat(150_000) })).status).toBe(413);
    const res = await fetch(`${server.url}/trpc/chats.create`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: http.cookieHeader, origin: server.url }, body: JSON.stringify({ title: 'x'.repeat(1_100_000) }) });
    expect(res.status).toBe(413);
  });
});
