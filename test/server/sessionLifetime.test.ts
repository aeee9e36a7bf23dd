import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUp, trpcClientFor } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/trust.js';

// Sessions that end: logout everywhere at once (sockets too), the list of sessions, the idle
// timeout and the absolute lifetime.

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
    expect(await openSocket('/ws', copied, server.url).outcome).toBe(401);
    expect(await openSocket('/trpc', copied, server.url).outcome).toBe(401);
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

  it('a password change ends every other session of the account and their sockets, keeps this one, and says so in the security activity', async () => {
    const { http } = await signUp(server.url, 'changes_password');
    const phone = new HttpClient(server.url);
    expect((await phone.post('/api/auth/login', { username: 'changes_password', password: 'secret123' })).status).toBe(200);
    const ws = openSocket('/ws', phone.cookieHeader, server.url);
    expect(await ws.outcome).toBe('open');
    const changed = await http.post('/trpc/auth.setPassword', { currentPassword: 'secret123', newPassword: 'new-secret-1' });
    expect(changed.status).toBe(200);
    expect(await ws.closed).toBe(4401);
    expect((await phone.get('/api/chats')).status).toBe(401);
    expect((await http.get('/api/chats')).status).toBe(200);
    const kinds = ((await http.get('/api/security-events?limit=5')).json.events as Array<{ kind: string }>).map((e) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['session_ended', 'password_changed']);
    expect((await http.get('/trpc/auth.sessions')).json.result.data.sessions).toHaveLength(1);
  });

  it('counts wrong current passwords like failed logins: 429 once spent, even for the right one', async () => {
    const { http } = await signUp(server.url, 'guesses_password');
    for (let i = 0; i < 5; i++) expect((await http.post('/trpc/auth.setPassword', { currentPassword: `guess-${i}`, newPassword: 'taken-over-1' })).status).toBe(403);
    const spent = await http.post('/trpc/auth.setPassword', { currentPassword: 'secret123', newPassword: 'taken-over-1' });
    expect(spent.status).toBe(429);
    // Login for the username shares the budget.
    expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'guesses_password', password: 'secret123' })).status).toBe(429);
  });

  it('closes the sockets of a session within 2 s of its logout', async () => {
    const { http } = await signUp(server.url, 'socket_holder');
    const chat = (await http.post('/api/chats')).json;
    const ws = openSocket('/ws', http.cookieHeader, server.url);
    const trpcWs = openSocket('/trpc', http.cookieHeader, server.url);
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
