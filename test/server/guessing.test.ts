import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { User } from '../../src/server/db/entities/User.js';
import { productionScryptCost, setScryptCostForTests } from '../../src/server/features/auth/password.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, trpcBatch } from '../helpers/trust.js';

// Guessing stays bounded (passwords, batches, forged proxy hops, registrations and messages), the
// access key as a way in, password hashing and HSTS.

let server: TestServer;

// Many of these tests check dozens of passwords (at the tests' scrypt cost, test/setup/passwordCost.ts)
// and start extra servers.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  server = await startTestServer({
    DEMO_MODE: 'false',
    ACCESS_KEY: 'the-right-key',
    // Every test here comes from 127.0.0.1: the per-address limit is tested on its own server.
    RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
  });
});
afterAll(async () => {
  await server?.stop();
});

describe('guessing stays bounded', () => {
  it('30 wrong passwords at once for one username: at most 5 are checked', async () => {
    await signUp(server.url, 'parallel_target');
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new HttpClient(server.url).post('/api/auth/login', { username: 'parallel_target', password: `wrong-${i}` }, { 'x-forwarded-for': `10.0.0.${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json.message).toMatch(/^Too many failed login attempts\. Please wait \d+ minutes? and try again\.$/);
  });

  it('a tRPC batch holds at most 10 calls, and each call counts', async () => {
    await signUp(server.url, 'batch_target');
    const http = new HttpClient(server.url);
    const fifty = Array.from({ length: 50 }, (_, i) => ({ path: 'auth.login', input: { username: 'batch_target', password: `wrong-${i}` } }));
    expect((await trpcBatch(http, fifty)).status).toBe(400);
    const ten = await trpcBatch(http, fifty.slice(0, 10));
    const codes = (ten.json as Array<{ error?: { data: { httpStatus: number } } }>).map((r) => r.error?.data.httpStatus);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    expect(ten.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('with TRUST_PROXY=1 a forged first X-Forwarded-For hop does not escape the address limit', async () => {
    const proxied = await startTestServer({ DEMO_MODE: 'false', TRUST_PROXY: '1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        // Each attempt uses another username, so only the per-address limit (20) can stop it.
        const res = await new HttpClient(proxied.url).post('/api/auth/login', { username: `nobody${i}`, password: 'wrong-pass' }, { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 401)).toHaveLength(20);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
      // Another client (as the proxy says) is not affected.
      expect((await new HttpClient(proxied.url).post('/api/auth/login', { username: 'nobody', password: 'wrong-pass' }, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(401);
    } finally {
      await proxied.stop();
    }
  });

  it('limits registrations per address and chat messages per user; 0 turns a limit off', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', RATE_LIMIT_REGISTER_PER_HOUR: '2', RATE_LIMIT_CHAT_PER_MINUTE: '2', RATE_LIMIT_LOGIN_PER_USERNAME: '0' });
    try {
      const { http } = await signUp(limited.url, 'limited_a');
      await signUp(limited.url, 'limited_b');
      const third = await new HttpClient(limited.url).post('/api/auth/register', { username: 'limited_c', password: 'secret123', fullName: 'Carol Test' });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(third.json.message).toMatch(/Please wait \d+ minutes? and try again\.$/);

      const chat = (await http.post('/api/chats')).json;
      const { client, close } = trpcClientFor(limited.url, http);
      try {
        await http.post(`/api/chats/${chat.id}/messages`, { content: 'one' });
        await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json?.at(-1)?.status !== 'streaming');
        await client.chats.send.mutate({ chatId: chat.id, content: 'two' });
        await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json?.at(-1)?.status !== 'streaming');
        const refused = await http.post(`/api/chats/${chat.id}/messages`, { content: 'three' });
        expect(refused.status).toBe(429);
        expect(refused.json.message).toMatch(/^Too many requests to the coach\. Please wait \d+ seconds? and try again\.$/);
        const ws = openSocket('/ws', http.cookieHeader, limited.url);
        expect(await ws.outcome).toBe('open');
        ws.ws.send(JSON.stringify({ type: 'chat_message', chatId: chat.id, content: 'four' }));
        const error = await eventually(() => ws.frames.find((f) => f.type === 'error'));
        expect(error.message).toMatch(/^Too many requests to the coach/);
        ws.ws.close();
      } finally {
        close();
      }
      // RATE_LIMIT_LOGIN_PER_USERNAME=0: the username limit is off (the address limit stays).
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await new HttpClient(limited.url).post('/api/auth/login', { username: 'limited_a', password: 'wrong-pass' })).status);
      expect(statuses.every((s) => s === 401)).toBe(true);
    } finally {
      await limited.stop();
    }
  });
});

describe('the access key is a way in', () => {
  it('gives each visitor who passes the gate a guest account of their own', async () => {
    const alice = new HttpClient(server.url);
    const bob = new HttpClient(server.url);
    expect((await alice.get('/api/chats')).status).toBe(401);
    const passed = await alice.get('/api/auth/check-access', { 'x-access-key': 'the-right-key' });
    expect(passed.status).toBe(200);
    const grant = passed.headers.getSetCookie().find((c) => c.startsWith('access_key='))!;
    expect(grant).toMatch(/HttpOnly/i);
    expect(grant).toMatch(/Max-Age=86400/i);
    expect(grant).not.toContain('the-right-key');
    expect((await bob.get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(200);

    const aliceSession = (await alice.get('/api/auth/session')).json.user;
    const bobSession = (await bob.get('/api/auth/session')).json.user;
    expect(aliceSession).toBeTruthy();
    expect(bobSession).toBeTruthy();
    expect(aliceSession.id).not.toBe(bobSession.id);

    const chat = (await alice.post('/api/chats', { title: 'Alice only' })).json;
    expect((await alice.get('/api/chats')).json.map((c: { id: number }) => c.id)).toContain(chat.id);
    expect((await bob.get('/api/chats')).json).toEqual([]);
    expect((await bob.get(`/api/chats/${chat.id}/messages`)).status).toBe(404);
  });

  it('a wrong key grants nothing, and guessing is limited', async () => {
    const guesser = new HttpClient(server.url);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await guesser.get('/api/auth/check-access', { 'x-access-key': `guess-${i}`, 'x-forwarded-for': '1.1.1.1' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const refused = await guesser.get('/api/auth/check-access', { 'x-access-key': 'the-right-key', 'x-forwarded-for': '1.1.1.1' });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toMatch(/^Too many wrong access keys\. Please wait \d+ minutes? and try again\.$/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(guesser.cookieHeader).not.toContain('access_key');
    expect((await guesser.get('/api/chats')).status).toBe(401);
  });
});

describe('passwords and transport', () => {
  it('hashes at scrypt N=2^17 and upgrades an older hash at the next login', async () => {
    // The production cost for this test (test/setup/passwordCost.ts lowers it for the others).
    setScryptCostForTests(productionScryptCost.N);
    onTestFinished(() => setScryptCostForTests(2 ** 10));
    const scrypt = promisify(crypto.scrypt) as (p: string, s: Buffer, k: number, o: crypto.ScryptOptions) => Promise<Buffer>;
    const salt = crypto.randomBytes(16);
    const key = await scrypt('old-secret', salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const em = server.deps.orm.em.fork();
    em.create(User, { username: 'oldhash', usernameKey: 'oldhash', passwordHash: ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$'), fullName: 'Old Hash', isDemo: false });
    await em.flush();
    expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'oldhash', password: 'old-secret' })).status).toBe(200);
    const stored = await server.deps.orm.em.fork().findOneOrFail(User, { usernameKey: 'oldhash' });
    expect(stored.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'oldhash', password: 'old-secret' })).status).toBe(200);
  });

  it('sends HSTS only over TLS (here: a trusted proxy that says https)', async () => {
    const plain = await new HttpClient(server.url).get('/healthz', { 'x-forwarded-proto': 'https' });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const proxied = await startTestServer({ DEMO_MODE: 'false', TRUST_PROXY: 'true' });
    try {
      const viaHttps = await new HttpClient(proxied.url).get('/healthz', { 'x-forwarded-proto': 'https' });
      expect(viaHttps.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
      const viaHttp = await new HttpClient(proxied.url).get('/healthz', { 'x-forwarded-proto': 'http' });
      expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await proxied.stop();
    }
  });
});
