import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { compressAnswers } from '../../src/server/http/staticAssets.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// How the client and the answers go over the wire: the build's precompressed brotli/gzip copies
// with their cache headers, index.html never cached, JSON compressed when asked, streams never.
// Server tests run without a client build, so the app serves a fixture directory laid out like
// `npm run build`'s output (dist/client with its .br and .gz copies).

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; chunks: { at: number; bytes: Buffer }[]; endedAt: number };

// node:http, not fetch: fetch would ask for compression itself and decode it out of sight.
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: RawAnswer['chunks'] = [];
      res.on('data', (bytes: Buffer) => chunks.push({ at: performance.now(), bytes }));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks.map((c) => c.bytes)), chunks, endedAt: performance.now() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

const script = `export const greeting = ${JSON.stringify('Hello from a hashed asset. '.repeat(400))};\n`;
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>AI Coach</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div><!--${'padding '.repeat(200)}--></body></html>\n`;

function writeWithCopies(file: string, content: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
}

// A build with prerendered public pages (scripts/prerender.mjs): each page's own HTML, the
// not-found page, and the list of client routes.
const prerenderedPage = (heading: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>AI Coach</title></head><body><div id="root"><h1>${heading}</h1></div><!--${'padding '.repeat(200)}--></body></html>\n`;
const prerendered = {
  index: prerenderedPage('Your AI coach'),
  terms: prerenderedPage('Terms of Service'),
  privacy: prerenderedPage('Privacy Policy'),
  login: prerenderedPage('Log in'),
  'not-found': prerenderedPage('404 Page Not Found'),
  // /app's pages: a placeholder of the app shell and a new conversation, or (app-chat, for
  // ?chat={id}) of a conversation loading; the app replaces it.
  app: prerenderedPage('AI Coach Chat: New Chat'),
  'app-chat': prerenderedPage('AI Coach Chat: loading'),
};

let fake: FakeOpenAI;
let server: TestServer;
let site: Awaited<ReturnType<typeof listen>>;
let prerenderedSite: Awaited<ReturnType<typeof listen>>;
let clientDir: string;
let prerenderedClientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-client-'));
  writeWithCopies(path.join(clientDir, 'index.html'), page);
  writeWithCopies(path.join(clientDir, 'assets', 'index-Ab12Cd34.js'), script);
  // Below the build's 1 KB threshold: no compressed copies.
  fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fake = await startFakeOpenAI();
  server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
  // The same deps as the running server, with the fixture as its built client.
  site = await listen(createApp(server.deps, { clientDir }));

  prerenderedClientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-client-prerendered-'));
  writeWithCopies(path.join(prerenderedClientDir, 'index.html'), page);
  for (const [name, html] of Object.entries(prerendered)) writeWithCopies(path.join(prerenderedClientDir, 'prerendered', `${name}.html`), html);
  fs.writeFileSync(path.join(prerenderedClientDir, 'prerendered', 'routes.json'), JSON.stringify(['/', '/app', '/settings', '/rehearsals/$id', '/rehearsals', '/login', '/privacy', '/terms']));
  prerenderedSite = await listen(createApp(server.deps, { clientDir: prerenderedClientDir }));
}, 120_000);

afterAll(async () => {
  await site?.close();
  await prerenderedSite?.close();
  if (prerenderedClientDir) fs.rmSync(prerenderedClientDir, { recursive: true, force: true });
  await server?.stop();
  await fake?.close();
  if (clientDir) fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('built client', () => {
  const asset = '/assets/index-Ab12Cd34.js';

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const res = await raw(site.url + asset, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript; charset=utf-8$/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends the gzip copy when gzip is all the client takes, and the file itself when it takes neither', async () => {
    const gzip = await raw(site.url + asset, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await raw(site.url + asset);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(script);
  });

  it('serves index.html precompressed and never cached, for / and for client routes', async () => {
    for (const route of ['/', '/app', '/app/chats/12', '/index.html', '/no-such-page']) {
      const res = await raw(site.url + route, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.headers['content-encoding'], route).toBe('br');
      expect(res.headers['content-type'], route).toMatch(/^text\/html; charset=utf-8$/i);
      expect(zlib.brotliDecompressSync(res.body).toString(), route).toBe(page);
    }
    const plain = await raw(`${site.url}/app`);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('answers 404 for a hashed asset that is not in the build, and sends small files as they are', async () => {
    const missing = await raw(`${site.url}/assets/index-Old00000.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(missing.status).toBe(404);
    const icon = await raw(`${site.url}/favicon.svg`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('prerendered public pages', () => {
  it('sends each public page its own HTML, precompressed and never cached', async () => {
    const expected: Record<string, string> = { '/': prerendered.index, '/terms': prerendered.terms, '/terms/': prerendered.terms, '/privacy': prerendered.privacy, '/login?next=x': prerendered.login };
    for (const [route, html] of Object.entries(expected)) {
      const res = await raw(prerenderedSite.url + route, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.headers['content-encoding'], route).toBe('br');
      expect(res.headers['content-type'], route).toMatch(/^text\/html; charset=utf-8$/i);
      expect(zlib.brotliDecompressSync(res.body).toString(), route).toBe(html);
    }
    const plain = await raw(prerenderedSite.url);
    expect(plain.body.toString()).toContain('<h1>Your AI coach</h1>');
  });

  it("sends the app's routes the single-page shell, /app its placeholder (a new conversation, or ?chat= one loading)", async () => {
    for (const [route, expected] of [
      ['/app', prerendered.app],
      ['/app/', prerendered.app],
      ['/app?new=true', prerendered.app],
      ['/app?chat=3', prerendered['app-chat']],
      ['/app/?chat=3&new=true', prerendered['app-chat']],
    ] as const) {
      const res = await raw(prerenderedSite.url + route);
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.body.toString(), route).toBe(expected);
    }
    for (const route of ['/settings', '/index.html']) {
      const res = await raw(prerenderedSite.url + route);
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.body.toString(), route).toBe(page);
    }
  });

  it("sends /app's placeholder, demo mode off, only to a request with a session cookie (anyone else is asked to sign in)", async () => {
    const noDemo = await listen(createApp({ ...server.deps, config: { ...server.deps.config, demoMode: false } }, { clientDir: prerenderedClientDir }));
    try {
      const signedOut = await raw(`${noDemo.url}/app`);
      expect(signedOut.status).toBe(200);
      expect(signedOut.body.toString()).toBe(page);
      expect(signedOut.headers.vary).toMatch(/Cookie/);
      const signedIn = await raw(`${noDemo.url}/app`, { headers: { cookie: 'ai_coach_session=sealed' } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.toString()).toBe(prerendered.app);
    } finally {
      await noDemo.close();
    }
  });

  it('answers a path that is no client route with the not-found page and status 404', async () => {
    for (const route of ['/no-such-page', '/app/chats/12', '/terms/old']) {
      const res = await raw(prerenderedSite.url + route, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status, route).toBe(404);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.headers['content-encoding'], route).toBe('gzip');
      expect(zlib.gunzipSync(res.body).toString(), route).toBe(prerendered['not-found']);
    }
  });

  it('answers a route with a parameter (/rehearsals/$id) for any value of it with the app, status 200', async () => {
    for (const route of ['/rehearsals/12', '/rehearsals/12/', '/rehearsals']) {
      const res = await raw(prerenderedSite.url + route);
      expect(res.status, route).toBe(200);
      expect(res.body.toString(), route).toBe(page);
    }
    for (const route of ['/rehearsals/12/report', '/rehearsals/12/old']) expect((await raw(prerenderedSite.url + route)).status, route).toBe(404);
  });

  it('still answers hashed assets and the API as before', async () => {
    const asset = await raw(`${prerenderedSite.url}/assets/index-Old00000.js`);
    expect(asset.status).toBe(404);
    expect(asset.body.toString()).toBe('Not found');
    const api = await raw(`${prerenderedSite.url}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/json/);
  });
});

describe('dynamic answers', () => {
  it('gzips a large JSON answer when the request asks, and sends identity when it does not', async () => {
    const gzip = await raw(`${site.url}/api/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    const document = JSON.parse(zlib.gunzipSync(gzip.body).toString());
    expect(document.openapi).toBeTruthy();
    expect(gzip.body.length).toBeLessThan(JSON.stringify(document).length / 3);

    const plain = await raw(`${site.url}/api/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(document);
  });

  it('leaves a small JSON answer as it is', async () => {
    const res = await raw(`${site.url}/api/auth/session`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('streams /api/openai server-sent events uncompressed, chunk by chunk as the model writes', async () => {
    const tokens = Array.from({ length: 8 }, (_, i) => ` token${i}`);
    fake.behave({ tokens, tokenDelayMs: 120 });
    const { http: user } = await signUp(site.url, `delivery-${Date.now()}`);
    const res = await raw(`${site.url}/api/openai/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', cookie: user.cookieHeader, origin: site.url },
      body: JSON.stringify({ model: 'any', stream: true, messages: [{ role: 'user', content: 'Go' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    const text = res.body.toString();
    for (const token of tokens) expect(text).toContain(JSON.stringify(token));
    expect(text).toContain('data: [DONE]');
    // Arrived as written: the first token's chunk came long before the end (8 tokens x 120 ms).
    const firstToken = res.chunks.find((c) => c.bytes.toString().includes('token0'));
    expect(firstToken).toBeDefined();
    expect(res.endedAt - firstToken!.at).toBeGreaterThan(500);
    expect(res.chunks.length).toBeGreaterThanOrEqual(tokens.length);
  });

  it('never compresses tRPC streamed batches, event streams or audio, even when large', async () => {
    const app = express();
    app.use(compressAnswers());
    const big = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, text: 'some text to compress' })) });
    app.get('/json', (_req, res) => void res.type('application/json').send(big));
    app.get('/events', (_req, res) => void res.type('text/event-stream').send(`data: ${big}\n\n`));
    app.get('/audio', (_req, res) => void res.type('audio/mpeg').send(Buffer.from(big)));
    const mini = await listen(app);
    try {
      const asks = { 'accept-encoding': 'gzip, br' };
      expect((await raw(`${mini.url}/json`, { headers: asks })).headers['content-encoding']).toBe('br');
      expect((await raw(`${mini.url}/json`, { headers: { ...asks, 'trpc-accept': 'application/jsonl' } })).headers['content-encoding']).toBeUndefined();
      expect((await raw(`${mini.url}/json`, { headers: { ...asks, accept: 'application/jsonl' } })).headers['content-encoding']).toBeUndefined();
      expect((await raw(`${mini.url}/events`, { headers: asks })).headers['content-encoding']).toBeUndefined();
      expect((await raw(`${mini.url}/audio`, { headers: asks })).headers['content-encoding']).toBeUndefined();
    } finally {
      await mini.close();
    }
  });

  it('serves tRPC answers compressed over the app, but a jsonl stream request as it is', async () => {
    const { http: user } = await signUp(site.url, `delivery-trpc-${Date.now()}`);
    // A batch of ten calls makes a large enough answer.
    const calls = Array.from({ length: 10 }, () => 'auth.session').join(',');
    const input = encodeURIComponent(JSON.stringify({}));
    const url = `${site.url}/trpc/${calls}?batch=1&input=${input}`;
    const headers = { cookie: user.cookieHeader, origin: site.url, 'accept-encoding': 'gzip' };
    const batch = await raw(url, { headers });
    expect(batch.status).toBe(200);
    const streamed = await raw(url, { headers: { ...headers, 'trpc-accept': 'application/jsonl' } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-encoding']).toBeUndefined();
    expect(batch.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(batch.body).toString())).toHaveLength(10);
  });
});
