import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Authentication runs before any body over 100 KB is read. A large body without a
// session is refused at once and its connection closed unread; with `Expect: 100-continue` the
// client is refused before it sends the body.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let server: TestServer;
const thirtyMegabytes = 30 * 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

type RawAnswer = { head: string; bodyBytesWritten: number; closedBeforeBodySent: boolean };

/**
 * Sends a request's head, then (unless it waits for 100-continue) streams `size` bytes of body as
 * fast as the socket takes them. Resolves when the server has answered and closed the connection.
 */
function rawPost(path: string, size: number, options: { expectContinue?: boolean; cookie?: string; chunked?: boolean } = {}): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const headers = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`,
      ...(options.expectContinue ? ['Expect: 100-continue'] : []),
      ...(options.cookie ? [`Cookie: ${options.cookie}`] : []),
      '',
      '',
    ].join('\r\n');
    const pump = () => {
      while (!closed && written < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - written));
        written += part.length;
        const framed = options.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
        if (!socket.write(framed)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(headers);
      if (!options.expectContinue) pump();
    });
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (options.expectContinue && received.startsWith('HTTP/1.1 100')) {
        received = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
        pump();
      }
    });
    socket.on('error', () => {}); // a reset after the answer is the point
    socket.on('close', () => {
      closed = true;
      resolve({ head: received, bodyBytesWritten: written, closedBeforeBodySent: written < size });
    });
    setTimeout(() => reject(new Error(`no close; got ${received.slice(0, 200)}`)), 30_000).unref();
  });
}

describe('bodies are bounded before they are read', () => {
  it('refuses a 30 MB upload without a session before the body is sent (Expect: 100-continue)', async () => {
    const answer = await rawPost('/api/voice/transcribe', thirtyMegabytes, { expectContinue: true });
    expect(answer.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.head).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer.bodyBytesWritten).toBe(0);
  });

  it('closes the connection of three 30 MB uploads without a session, unread, keeping memory low', async () => {
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(['/api/voice/transcribe', '/trpc/chats.list', '/api/openai/chat/completions'].map((path) => rawPost(path, thirtyMegabytes)));
    for (const answer of answers) {
      expect(answer.head).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.closedBeforeBodySent).toBe(true);
    }
    // The server (in this process) took in a few socket buffers at most, never the 90 MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('refuses a chunked body of unknown size without a session', async () => {
    const answer = await rawPost('/api/voice/transcribe', 4 * 1024 * 1024, { chunked: true });
    expect(answer.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.closedBeforeBodySent).toBe(true);
  });

  it('reads a large body for a signed-in session and for an API key, and a small one for anyone', async () => {
    const { http } = await signUp(server.url, 'uploader');
    const big = { model: 'x', messages: [{ role: 'user', content: 'a'.repeat(200 * 1024) }] };
    // Past the gate, the route's own rules answer (the parser read it: not the gate's 401).
    const signedIn = await http.post('/api/openai/chat/completions', big);
    expect(signedIn.status).not.toBe(401);
    const continued = await rawPost('/api/openai/chat/completions', 200 * 1024, { expectContinue: true, cookie: http.cookieHeader });
    expect(continued.bodyBytesWritten).toBe(200 * 1024);
    expect(continued.head).not.toMatch(/^HTTP\/1\.1 401 /);

    const key = (await http.post('/api/api-keys', { name: 'upload' })).json.key as string;
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
    expect((await script.post('/api/openai/chat/completions', big)).status).not.toBe(401);

    // A small body without a session is read and answered by the route as before.
    const small = await new HttpClient(server.url).post('/api/auth/login', { username: 'nobody', password: 'wrong-password' });
    expect(small.status).toBe(401);
    expect(small.headers.get('connection')).not.toBe('close');
  });

  it('refuses a large body with a wrong API key', async () => {
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: 'Bearer aic_wrong' } });
    const res = await script.post('/api/openai/chat/completions', { messages: [{ role: 'user', content: 'a'.repeat(200 * 1024) }] });
    expect(res.status).toBe(401);
  });
});
