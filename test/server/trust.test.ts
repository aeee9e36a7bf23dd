import crypto from 'node:crypto';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { User } from '../../src/server/db/entities/User.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Issue 14: sessions that end, guessing that stays bounded, the access key as a way in, a coach
// that never forgets.
let server: TestServer;
let fake: FakeOpenAI;

// Many of these tests check dozens of passwords at scrypt N=2^17 (about 0.3 s each, several
// seconds on a busy machine) and start extra servers.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({
    DEMO_MODE: 'false',
    ACCESS_KEY: 'the-right-key',
    // Every test here comes from 127.0.0.1: the per-address limit is tested on its own server.
    RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.url,
    MODEL_STALL_TIMEOUT_SECONDS: '1',
  });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

function openSocket(path: '/ws' | '/trpc', cookie: string, baseUrl = server.url) {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}${path}`, { headers: { cookie, origin: baseUrl } });
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const outcome = new Promise<'open' | number>((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, outcome, closed };
}

function trpcBatch(http: HttpClient, calls: Array<{ path: string; input: unknown }>) {
  const paths = calls.map((c) => c.path).join(',');
  const body = Object.fromEntries(calls.map((c, i) => [i, c.input]));
  return http.post(`/trpc/${paths}?batch=1`, body);
}

describe('sessions end', () => {
  it('a cookie copied before logout answers 401 everywhere, and its sockets are refused', async () => {
    const { http } = await signUp(server.url, 'replayer');
    const copied = http.cookieHeader;
    expect(copied).toMatch(/ai_coach_session=/);
    expect((await http.get('/api/chats')).status).toBe(200);
    expect((await http.post('/api/auth/logout')).status).toBe(200);

    const thief = new HttpClient(server.url);
    const headers = { cookie: copied };
    expect((await thief.get('/api/chats', headers)).status).toBe(401);
    expect((await thief.post('/api/chats', {}, headers)).status).toBe(401);
    expect((await thief.get('/api/auth/session', headers)).json).toEqual({ user: null });
    expect((await thief.get('/trpc/chats.list', headers)).status).toBe(401);
    expect(await openSocket('/ws', copied).outcome).toBe(401);
    expect(await openSocket('/trpc', copied).outcome).toBe(401);
  });

  it('signs in again on a browser that still holds the cookie of an ended session', async () => {
    const { http } = await signUp(server.url, 'come_back');
    const stale = http.cookieHeader;
    expect((await http.post('/api/auth/logout')).status).toBe(200);
    // Another tab of the same browser still sends the old cookie with its login and register.
    const tab = new HttpClient(server.url);
    const login = await tab.request('POST', '/api/auth/login', { username: 'come_back', password: 'secret123' }, { cookie: stale });
    expect(login.status).toBe(200);
    expect((await tab.get('/api/auth/session')).json.user).toMatchObject({ username: 'come_back' });
    const other = new HttpClient(server.url);
    const register = await other.request('POST', '/api/auth/register', { username: 'come_back_2', password: 'secret123', fullName: 'Second Try' }, { cookie: stale });
    expect(register.status).toBe(201);
    expect((await other.get('/api/auth/session')).json.user).toMatchObject({ username: 'come_back_2' });
  }, 60_000);

  it('closes the sockets of a session within 2 s of its logout', async () => {
    const { http } = await signUp(server.url, 'socket_holder');
    const chat = (await http.post('/api/chats')).json;
    const ws = openSocket('/ws', http.cookieHeader);
    const trpcWs = openSocket('/trpc', http.cookieHeader);
    expect(await ws.outcome).toBe('open');
    expect(await trpcWs.outcome).toBe('open');
    const before = Date.now();
    const other = new HttpClient(server.url);
    await other.post('/api/auth/logout', {}, { cookie: http.cookieHeader });
    expect(await ws.closed).toBe(4401);
    expect(await trpcWs.closed).toBe(4401);
    expect(Date.now() - before).toBeLessThan(2000);
    expect(ws.frames.at(-1)).toMatchObject({ type: 'error' });
    expect((await other.get(`/api/chats/${chat.id}/messages`, { cookie: http.cookieHeader })).status).toBe(401);
  });

  it('lists the active sessions and signs out one or all the others', async () => {
    const first = await signUp(server.url, 'many_devices');
    const second = new HttpClient(server.url);
    expect((await second.post('/api/auth/login', { username: 'many_devices', password: 'secret123' }, { 'user-agent': 'Phone Browser' })).status).toBe(200);
    const third = new HttpClient(server.url);
    await third.post('/api/auth/login', { username: 'many_devices', password: 'secret123' });

    const { client, close } = trpcClientFor(server.url, first.http);
    try {
      const { sessions } = await client.auth.sessions.query();
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      const phone = sessions.find((s) => s.userAgent === 'Phone Browser')!;
      await client.auth.endSession.mutate({ id: phone.id });
      expect((await second.get('/api/chats')).status).toBe(401);
      expect((await third.get('/api/chats')).status).toBe(200);
      // Someone else's session id is answered like a missing one.
      const stranger = await signUp(server.url, 'stranger_sessions');
      const strangerClient = trpcClientFor(server.url, stranger.http);
      await expect(strangerClient.client.auth.endSession.mutate({ id: sessions.find((s) => s.current)!.id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
      strangerClient.close();

      expect(await client.auth.endOtherSessions.mutate()).toEqual({ ended: 1 });
      expect((await third.get('/api/chats')).status).toBe(401);
      expect((await first.http.get('/api/chats')).status).toBe(200);
      expect((await client.auth.sessions.query()).sessions).toHaveLength(1);
    } finally {
      close();
    }
  });
});

describe('idle timeout and absolute lifetime', () => {
  it('ends a session after its lifetime', async () => {
    const short = await startTestServer({ DEMO_MODE: 'false', SESSION_LIFETIME_SECONDS: '60', SESSION_IDLE_TIMEOUT_SECONDS: '60' });
    try {
      const { http } = await signUp(short.url, 'short_lived');
      expect((await http.get('/api/chats')).status).toBe(200);
      // Move the clock of the stored session instead of waiting a minute (a restart empties the cache).
      const em = short.deps.orm.em.fork();
      await em.getConnection().execute(`update auth_session set expires_at = now() - interval '1 second'`);
      await short.close();
      const restarted = await startTestServer({ DEMO_MODE: 'false', SESSION_LIFETIME_SECONDS: '60' }, short.database);
      try {
        expect((await new HttpClient(restarted.url).get('/api/chats', { cookie: http.cookieHeader })).status).toBe(401);
      } finally {
        await restarted.stop();
      }
    } finally {
      await short.stop();
    }
  });
});

describe('idle timeout', () => {
  it('ends a session left unused past SESSION_IDLE_TIMEOUT_SECONDS', async () => {
    const env = { DEMO_MODE: 'false', SESSION_IDLE_TIMEOUT_SECONDS: '60' };
    const idle = await startTestServer(env);
    try {
      const { http } = await signUp(idle.url, 'idle_user');
      const busy = new HttpClient(idle.url);
      expect((await busy.post('/api/auth/login', { username: 'idle_user', password: 'secret123' }, { 'user-agent': 'Busy Browser' })).status).toBe(200);
      expect((await http.get('/api/chats')).status).toBe(200);
      // Move the last use of the first session back instead of waiting a minute (a restart empties the cache).
      const em = idle.deps.orm.em.fork();
      await em.getConnection().execute(`update auth_session set last_seen_at = now() - interval '61 seconds' where user_agent is distinct from 'Busy Browser'`);
      await idle.close();
      const restarted = await startTestServer(env, idle.database);
      try {
        expect((await new HttpClient(restarted.url).get('/api/chats', { cookie: http.cookieHeader })).status).toBe(401);
        expect((await new HttpClient(restarted.url).get('/api/chats', { cookie: busy.cookieHeader })).status).toBe(200);
      } finally {
        await restarted.stop();
      }
    } finally {
      await idle.stop();
    }
  });

  it('closes the sockets of a session left idle, and not while the session is in use', async () => {
    const idle = await startTestServer({ DEMO_MODE: 'false', SESSION_IDLE_TIMEOUT_SECONDS: '60' });
    try {
      const { http } = await signUp(idle.url, 'idle_sockets');
      // The clock jumps ahead (the server runs in this process); everything else runs in real time.
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      const ws = openSocket('/ws', http.cookieHeader, idle.url);
      expect(await ws.outcome).toBe('open');
      await vi.advanceTimersByTimeAsync(40_000);
      expect((await http.get('/api/chats')).status).toBe(200); // used: idle from here on
      await vi.advanceTimersByTimeAsync(30_000); // past the first deadline: the socket stays
      await new Promise((resolve) => setImmediate(resolve));
      expect(ws.ws.readyState).toBe(WebSocket.OPEN);
      await vi.advanceTimersByTimeAsync(31_000); // 61 s after the last use
      expect(await ws.closed).toBe(4401);
      expect(ws.frames.at(-1)).toMatchObject({ type: 'error' });
      vi.useRealTimers();
      expect((await http.get('/api/chats')).status).toBe(401);
    } finally {
      vi.useRealTimers();
      await idle.stop();
    }
  });
});

describe('the daily model quota', () => {
  it('takes a turn before the model, gives it back when the request fails, and answers 429 with Retry-After', async () => {
    const quota = await startTestServer({ DEMO_MODE: 'false', MODEL_DAILY_QUOTA: '2' });
    try {
      const { http } = await signUp(quota.url, 'daily_quota');
      // A message to a chat that is not there fails before the model: its turn is given back.
      expect((await http.post('/api/chats/999999/messages', { content: 'nowhere' })).status).toBe(404);
      const chats = [(await http.post('/api/chats')).json, (await http.post('/api/chats')).json];
      for (const [i, chat] of chats.entries()) {
        expect((await http.post(`/api/chats/${chat.id}/messages`, { content: `turn ${i}` })).status).toBe(201);
      }
      const refused = await http.post(`/api/chats/${chats[0].id}/messages`, { content: 'one more' });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe(chatTexts.dailyQuotaSpent(2));
      expectRetryAfterUtcMidnight(refused.headers);
      const viaTrpc = await trpcBatch(http, [{ path: 'chats.send', input: { chatId: chats[1].id, content: 'one more' } }]);
      expect(viaTrpc.json[0].error.data.httpStatus).toBe(429);
      expectRetryAfterUtcMidnight(viaTrpc.headers);
      const viaOpenAi = await http.post('/api/openai/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
      expect(viaOpenAi.status).toBe(429);
      expectRetryAfterUtcMidnight(viaOpenAi.headers);
      // Another user has a quota of their own.
      const other = await signUp(quota.url, 'daily_quota_other');
      expect((await other.http.post(`/api/chats/${(await other.http.post('/api/chats')).json.id}/messages`, { content: 'mine' })).status).toBe(201);
    } finally {
      await quota.stop();
    }
  });
});

function expectRetryAfterUtcMidnight(headers: Headers) {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  const expected = Math.ceil((midnight.getTime() - Date.now()) / 1000);
  const retryAfter = headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  // Seconds to the next UTC midnight (a test running across midnight sees a whole day more).
  expect(Math.abs(Number(retryAfter) - expected) % 86_400).toBeLessThan(10);
}

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

describe('the coach never forgets', () => {
  it('keeps the earlier turns after a reply stopped before its first word', async () => {
    const { http } = await signUp(server.url, 'forgetful');
    const chat = (await http.post('/api/chats')).json;
    fake.behave({ reply: 'Paris is the capital of France.' });
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'What is the capital of France?' });
    await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1).status === 'complete');

    fake.behave({ tokens: ['late'], tokenDelayMs: 5000 });
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'And of Spain?' });
    const { client, close } = trpcClientFor(server.url, http);
    await client.chats.stop.mutate({ chatId: chat.id });
    close();
    const stopped = await eventually(async () => {
      const last = (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1);
      return last.status === 'stopped' ? last : undefined;
    });
    expect(stopped.content).toBe('');

    fake.behave({ reply: 'Madrid.' });
    const before = fake.replyRequests().length;
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'Which of the two did I ask about first?' });
    const asked = await eventually(() => fake.replyRequests()[before]);
    const sent = asked.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(sent).toEqual(['What is the capital of France?', 'Paris is the capital of France.', 'And of Spain?', 'Which of the two did I ask about first?']);
  });

  it('stops a stalled provider stream, keeps the partial text and tells the user', async () => {
    const { http } = await signUp(server.url, 'stalled');
    const chat = (await http.post('/api/chats')).json;
    fake.behave({ tokens: ['Half', ' an', ' answer', ' never', ' ends'], stallAfterTokens: 3 });
    const ws = openSocket('/ws', http.cookieHeader);
    await ws.outcome;
    ws.ws.send(JSON.stringify({ type: 'chat_message', chatId: chat.id, content: 'Tell me everything' }));
    const error = await eventually(() => ws.frames.find((f) => f.type === 'error'), 5000);
    expect(error.message).toBe(chatTexts.replyStalled);
    const last = (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1);
    expect(last).toMatchObject({ role: 'assistant', status: 'stopped', content: 'Half an answer' });
    ws.ws.close();
    // The chat takes messages again.
    fake.behave({ reply: 'Done.' });
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'again' })).status).toBe(201);
  });
});

describe('passwords and transport', () => {
  it('hashes at scrypt N=2^17 and upgrades an older hash at the next login', async () => {
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

describe('demo data', () => {
  it('exists only while demo mode is on, created at start (idempotent)', async () => {
    const demoUsers = async (s: TestServer) => s.deps.orm.em.fork().count(User, { isDemo: true });
    expect(await demoUsers(server)).toBe(0);
    const demo = await startTestServer({ DEMO_MODE: 'true' });
    try {
      expect(await demoUsers(demo)).toBe(1);
      const chats = (await new HttpClient(demo.url).get('/api/chats')).json as Array<{ id: number; title: string }>;
      expect(chats.map((c) => c.id).sort()).toEqual([1, 2, 3, 4]);
      await demo.close();
      const again = await startTestServer({ DEMO_MODE: 'true' }, demo.database);
      expect(await demoUsers(again)).toBe(1);
      expect((await new HttpClient(again.url).get('/api/chats')).json).toHaveLength(4);
      await again.close();
      const off = await startTestServer({ DEMO_MODE: 'false' }, demo.database);
      expect(await demoUsers(off)).toBe(0);
      await off.close();
    } finally {
      await demo.stop();
    }
  });
});

describe('the daily model quota of guest spaces', () => {
  it('is one budget for every guest from an address: a new guest space does not bring a new day of turns', async () => {
    const quota = await startTestServer({ DEMO_MODE: 'true', MODEL_DAILY_QUOTA: '2', RATE_LIMIT_GUEST_PER_HOUR: '0' });
    try {
      // Each client without cookies becomes a guest of its own on its first write.
      const newGuest = async () => {
        const http = new HttpClient(quota.url);
        const chat = await http.post('/api/chats', { title: 'Guest' });
        expect(chat.status).toBe(201);
        return { http, chatId: chat.json.id as number };
      };
      const first = await newGuest();
      expect((await first.http.post(`/api/chats/${first.chatId}/messages`, { content: 'turn 1' })).status).toBe(201);
      const second = await newGuest();
      expect((await second.http.get('/api/auth/session')).json.user.id).not.toBe((await first.http.get('/api/auth/session')).json.user.id);
      expect((await second.http.post(`/api/chats/${second.chatId}/messages`, { content: 'turn 2' })).status).toBe(201);
      const third = await newGuest();
      const refused = await third.http.post(`/api/chats/${third.chatId}/messages`, { content: 'turn 3' });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe(chatTexts.dailyQuotaSpent(2));
      expectRetryAfterUtcMidnight(refused.headers);
      // A registered account keeps a budget of its own, whatever the guests of its address spent.
      const { http } = await signUp(quota.url, 'quota_after_guests');
      const chat = (await http.post('/api/chats')).json;
      expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'mine' })).status).toBe(201);
    } finally {
      await quota.stop();
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two instances on one PostgreSQL', () => {
  it('share the limits and end sessions (and their sockets) on both', async () => {
    const { freshDatabase } = await import('../helpers/database.js');
    const database = await freshDatabase();
    const env = { DEMO_MODE: 'false', RATE_LIMIT_LOGIN_PER_ADDRESS: '0', MODEL_DAILY_QUOTA: '2' };
    const a = await startTestServer(env, database);
    const b = await startTestServer(env, database);
    try {
      await signUp(a.url, 'shared_target');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const target = i % 2 ? b.url : a.url;
        statuses.push((await new HttpClient(target).post('/api/auth/login', { username: 'shared_target', password: 'wrong-pass' })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);

      // The daily model quota: one turn on each instance spends it on both.
      const writer = (await signUp(a.url, 'shared_quota')).http;
      const onBoth = async (target: string, content: string) => {
        const chat = (await writer.post('/api/chats')).json;
        return new HttpClient(target).post(`/api/chats/${chat.id}/messages`, { content }, { cookie: writer.cookieHeader });
      };
      expect((await onBoth(a.url, 'on A')).status).toBe(201);
      expect((await onBoth(b.url, 'on B')).status).toBe(201);
      for (const target of [a.url, b.url]) {
        const refused = await onBoth(target, 'one more');
        expect(refused.status).toBe(429);
        expect(refused.json.message).toBe(chatTexts.dailyQuotaSpent(2));
        expectRetryAfterUtcMidnight(refused.headers);
      }

      const { http } = await signUp(a.url, 'two_instance_session');
      const copied = http.cookieHeader;
      expect((await new HttpClient(b.url).get('/api/chats', { cookie: copied })).status).toBe(200); // cached on B now
      const onB = openSocket('/ws', copied, b.url);
      expect(await onB.outcome).toBe('open');
      const before = Date.now();
      expect((await http.post('/api/auth/logout')).status).toBe(200);
      expect(await onB.closed).toBe(4401);
      expect(Date.now() - before).toBeLessThan(2000);
      expect((await new HttpClient(b.url).get('/api/chats', { cookie: copied })).status).toBe(401);
    } finally {
      await a.stop();
      await b.stop();
      await database.dispose();
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('an event connection that drops', () => {
  it('replays what a subscriber missed from the database: no silent gap', async () => {
    const { freshDatabase } = await import('../helpers/database.js');
    const pg = (await import('pg')).default;
    const database = await freshDatabase();
    const env = { DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url };
    const a = await startTestServer(env, database);
    const b = await startTestServer(env, database);
    try {
      const { http } = await signUp(a.url, 'dropped_events');
      const chat = (await http.post('/api/chats')).json;
      const onB = trpcClientFor(b.url, http);
      const events: any[] = [];
      await new Promise<void>((resolve) => {
        onB.client.chats.events.subscribe({ chatId: chat.id }, { onStarted: () => resolve(), onData: (e: any) => void events.push(e.data) });
      });
      // A reply that ends while the event connections are down (they come back after 100 ms).
      fake.behave({ tokens: ['one', ' two', ' three', ' four', ' five', ' six'], tokenDelayMs: 15 });
      const { client: onA, close: closeA } = trpcClientFor(a.url, http);
      await onA.chats.send.mutate({ chatId: chat.id, content: 'count for me' });
      await eventually(() => events.some((e) => e.type === 'message.delta'));
      const admin = new pg.Client({ connectionString: database.databaseUrl });
      await admin.connect();
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'ai-coach-events' and datname = current_database()`);
      await admin.end();

      const completed = await eventually(() => events.find((e) => e.type === 'message.completed'), 10_000);
      expect(completed.message).toMatchObject({ role: 'assistant', status: 'complete', content: 'one two three four five six' });
      // And the bus works again afterwards.
      fake.behave({ reply: 'After the drop.' });
      await onA.chats.send.mutate({ chatId: chat.id, content: 'again' });
      await eventually(() => events.some((e) => e.type === 'message.completed' && e.message.content === 'After the drop.'), 10_000);
      closeA();
      onB.close();
    } finally {
      await a.stop();
      await b.stop();
      await database.dispose();
    }
  });
});
