import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeyLimits } from '../../src/shared/schemas/apiKeys.js';
import { goalLimits } from '../../src/shared/schemas/goals.js';
import { apiKeyTexts, authTexts } from '../../src/shared/texts/index.js';
import { AuthSession } from '../../src/server/db/entities/AuthSession.js';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { Memory } from '../../src/server/db/entities/Memory.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { NudgeRun } from '../../src/server/db/entities/Nudge.js';
import { Rehearsal } from '../../src/server/db/entities/Rehearsal.js';
import { User } from '../../src/server/db/entities/User.js';
import { deleteIdleGuests } from '../../src/server/features/auth/guestAccount.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// A private guest space for every demo visitor, integrations
// only on registered accounts, API keys with a scope, and sessions that end everywhere.
let server: TestServer;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  // Every test comes from 127.0.0.1: the guest limit is tested on its own server.
  server = await startTestServer({ DEMO_MODE: 'true', RATE_LIMIT_GUEST_PER_HOUR: '0', RATE_LIMIT_LOGIN_PER_ADDRESS: '0', SESSION_SOCKET_RECHECK_SECONDS: '1' });
});
afterAll(async () => {
  await server?.stop();
});

const em = () => server.deps.orm.em.fork();
const templateId = async () => (await em().findOneOrFail(User, { isDemo: true })).id;
const sampleTitles = async () => (await em().find(Chat, { owner: await templateId() }, { orderBy: { id: 'asc' } })).map((c) => c.title);

function openSocket(path: '/ws' | '/trpc', cookie = '') {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`, { headers: { ...(cookie ? { cookie } : {}), origin: server.url } });
  const frames: any[] = [];
  ws.on('message', (data) => {
    const text = data.toString();
    frames.push(text === 'PING' || text === 'PONG' ? text : JSON.parse(text));
  });
  const outcome = new Promise<'open' | number>((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, outcome, closed };
}

async function guest() {
  const http = new HttpClient(server.url);
  const created = await http.post('/api/chats', { title: 'Start' });
  expect(created.status).toBe(201);
  expect(http.cookieHeader).toMatch(/ai_coach_session=/);
  const session = await http.get('/api/auth/session');
  return { http, userId: session.json.user.id as number };
}

describe('a private guest space for every visitor', () => {
  it('gives two visitors without cookies spaces of their own: what one writes, the other never sees', async () => {
    const samples = await sampleTitles();
    // The four sample chats, and the chats of the example rehearsal and weekly review.
    expect(samples).toHaveLength(6);
    const alice = new HttpClient(server.url);
    const bob = new HttpClient(server.url);
    // Reads without a session are the template: the demo profile and the four samples.
    const before = await bob.get('/api/chats');
    expect(before.status).toBe(200);
    expect(before.json.map((c: { title: string }) => c.title).sort()).toEqual([...samples].sort());
    expect(bob.cookieHeader).toBe('');

    const created = await alice.post('/api/chats', { title: 'my private divorce notes' });
    expect(created.status).toBe(201);
    expect(alice.cookieHeader).toMatch(/ai_coach_session=/);
    const aliceSession = await alice.get('/api/auth/session');
    expect(aliceSession.json.user.fullName).toBe('Alex Morgan');
    const aliceChats = (await alice.get('/api/chats')).json.map((c: { title: string }) => c.title);
    expect(aliceChats).toContain('my private divorce notes');
    expect(aliceChats.filter((t: string) => samples.includes(t))).toHaveLength(6);

    // Bob, with no cookie, and Bob after a write of his own: never Alice's chat.
    expect((await bob.get('/api/chats')).json.map((c: { title: string }) => c.title)).not.toContain('my private divorce notes');
    await bob.post('/api/chats', { title: 'Bob' });
    const bobChats = (await bob.get('/api/chats')).json.map((c: { title: string }) => c.title);
    expect(bobChats).toContain('Bob');
    expect(bobChats).not.toContain('my private divorce notes');
    expect((await bob.get('/api/auth/session')).json.user.id).not.toBe(aliceSession.json.user.id);

    // Nothing was ever written into the template.
    expect(await sampleTitles()).toEqual(samples);
    expect(await em().count(Chat, { owner: await templateId() })).toBe(6);
  });

  it('sends a first message aimed at a sample chat into the guest’s copy of it, never the template', async () => {
    const visitor = new HttpClient(server.url);
    const sample = (await visitor.get('/api/chats')).json[0] as { id: number; title: string };
    const templateMessages = await em().count(Message, { chat: sample.id });
    const sent = await visitor.post(`/api/chats/${sample.id}/messages`, { content: 'Only mine' });
    expect(sent.status).toBe(201);
    expect(await em().count(Message, { chat: sample.id })).toBe(templateMessages);
    // The copy answers to the sample's id (the visitor's screens hold that id), and it is theirs.
    const copy = (await visitor.get('/api/chats')).json.find((c: { title: string }) => c.title === sample.title);
    expect(copy.id).toBe(sample.id);
    const messages = await visitor.get(`/api/chats/${sample.id}/messages`);
    expect(JSON.stringify(messages.json)).toContain('Only mine');
    expect(await em().count(Chat, { owner: { isGuest: true }, sampleOf: sample.id, title: sample.title })).toBeGreaterThan(0);
  });

  it('signs demo / demo1234 into a fresh private guest each time, never a shared account', async () => {
    const one = new HttpClient(server.url);
    const two = new HttpClient(server.url);
    const credentials = authTexts.demoCredentials;
    const a = await one.post('/api/auth/login', credentials);
    const b = await two.post('/api/auth/login', credentials);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json.user.fullName).toBe('Alex Morgan');
    expect(a.json.user.id).not.toBe(b.json.user.id);
    expect(a.json.user.id).not.toBe(await templateId());
    await one.post('/api/chats', { title: 'one only' });
    expect((await two.get('/api/chats')).json.map((c: { title: string }) => c.title)).not.toContain('one only');
    expect((await two.get('/api/chats')).json).toHaveLength(6);
  });

  it('keeps the guest’s chats and goals when the guest registers: the guest becomes the account', async () => {
    const { http, userId } = await guest();
    const goal = await http.post('/api/goals', { title: 'Ship it', framework: 'SMART', dueDate: '2027-01-31', keyResults: [] });
    expect(goal.status).toBe(201);
    const registered = await http.post('/api/auth/register', { username: `from_guest_${Date.now()}`, password: 'secret123', fullName: 'Now Real' });
    expect(registered.status).toBe(201);
    expect(registered.json.user.id).toBe(userId);
    const chats = (await http.get('/api/chats')).json.map((c: { title: string }) => c.title);
    expect(chats).toContain('Start');
    expect((await http.get('/api/goals')).json.goals.map((g: { title: string }) => g.title)).toContain('Ship it');
    const user = await em().findOneOrFail(User, userId);
    expect(user.isGuest).toBe(false);
    // A registered account may now mint a key.
    expect((await http.post('/api/api-keys', { name: 'now allowed' })).status).toBe(201);
  });

  it('keeps what the visitor wrote and none of the demo’s samples when the guest registers', async () => {
    const { http, userId } = await guest();
    const samples = (await http.get('/api/chats')).json as Array<{ id: number; title: string }>;
    const [written, ...untouched] = samples.filter((c) => c.title !== 'Start');
    expect((await http.post(`/api/chats/${written!.id}/messages`, { content: 'My own words in a sample chat' })).status).toBe(201);
    expect((await http.post('/api/goals', { title: 'Run a half marathon', framework: 'SMART', dueDate: '2027-01-31', keyResults: [] })).status).toBe(201);
    const sampleGoals = (await http.get('/api/goals')).json.goals as Array<{ id: number; title: string; keyResults: Array<{ id: number }> }>;
    const checkedIn = sampleGoals.find((g) => g.title === 'Ship weekly with fewer incidents')!;
    expect((await http.post(`/api/goals/${checkedIn.id}/check-ins`, { keyResultId: checkedIn.keyResults[0]!.id, value: 7 })).status).toBe(201);
    expect((await http.post('/api/memories', { text: 'I coach the under-12 hockey team on Sundays.' })).status).toBe(201);
    // Before: the samples are the visitor's copies.
    expect(await em().count(Memory, { owner: userId, isSample: true })).toBeGreaterThan(0);
    expect(await em().count(Rehearsal, { owner: userId, isSample: true })).toBe(1);
    expect(await em().count(NudgeRun, { owner: userId, isSample: true })).toBe(1);

    const registered = await http.post('/api/auth/register', { username: `keeps_${Date.now()}`, password: 'secret123', fullName: 'Sam Rivera' });
    expect(registered.status).toBe(201);
    expect(registered.json.user).toMatchObject({ id: userId, fullName: 'Sam Rivera' });

    const chats = (await http.get('/api/chats')).json.map((c: { title: string }) => c.title);
    expect(chats).toContain('Start');
    // A sample chat the visitor wrote in is their conversation now; the others went.
    expect(chats).toContain(written!.title);
    for (const sample of untouched) expect(chats).not.toContain(sample.title);
    const goals = (await http.get('/api/goals')).json.goals.map((g: { title: string }) => g.title);
    expect(goals.sort()).toEqual(['Run a half marathon', 'Ship weekly with fewer incidents']);
    const memories = (await http.get('/api/memories')).json;
    const texts = JSON.stringify(memories);
    expect(texts).toContain('under-12 hockey team');
    expect(texts).not.toContain('Elena Rossi');
    expect(texts).not.toContain('Priya');
    expect(await em().count(Goal, { owner: userId, isSample: true })).toBe(0);
    expect(await em().count(Memory, { owner: userId, isSample: true })).toBe(0);
    expect(await em().count(Rehearsal, { owner: userId })).toBe(0);
    expect(await em().count(NudgeRun, { owner: userId })).toBe(0);
  });

  it('deletes guest spaces unused for DEMO_GUEST_IDLE_HOURS with all their data; their cookie then answers 401, not the template', async () => {
    const idle = await guest();
    const active = await guest();
    const { http: member } = await signUp(server.url, `member_${Date.now()}`);
    const later = Date.now() + 73 * 3_600_000;
    // The active guest was seen "later" (its session row says so).
    await em().nativeUpdate(AuthSession, { user: active.userId }, { lastSeenAt: new Date(later - 3_600_000) });
    const deleted = await deleteIdleGuests(server.deps, 72, later);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await em().findOne(User, idle.userId)).toBeNull();
    expect(await em().count(Chat, { owner: idle.userId })).toBe(0);
    expect(await em().findOne(User, active.userId)).not.toBeNull();
    expect((await member.get('/api/chats')).status).toBe(200);
    const after = await idle.http.get('/api/chats');
    expect(after.status).toBe(401);
  });

  it('starts a guest space for a write over /ws, for that connection only, and the template stays untouched', async () => {
    const samples = await sampleTitles();
    const sample = (await em().find(Chat, { owner: await templateId() }, { orderBy: { id: 'asc' } }))[0]!;
    const socket = openSocket('/ws');
    expect(await socket.outcome).toBe('open');
    socket.ws.send(JSON.stringify({ type: 'chat_message', chatId: sample.id, content: 'over the socket' }));
    await eventually(() => socket.frames.some((f) => f.type === 'new_message' && f.message.content === 'over the socket'));
    expect(socket.frames.filter((f) => f.type === 'error')).toEqual([]);
    expect(await sampleTitles()).toEqual(samples);
    expect(await em().count(Message, { chat: sample.id, content: 'over the socket' })).toBe(0);
    socket.ws.close();
  });

  it('refuses a first write over the tRPC WebSocket without a session rather than writing into the template', async () => {
    const socket = openSocket('/trpc');
    expect(await socket.outcome).toBe('open');
    socket.ws.send(JSON.stringify({ id: 1, method: 'mutation', params: { path: 'chats.create', input: { title: 'ws write' } } }));
    const reply = await eventually(() => socket.frames.find((f) => f.id === 1));
    // Either a guest space of the connection's own, or a refusal: never the template.
    if (reply.error) expect(reply.error.data.httpStatus).toBe(401);
    expect(await em().count(Chat, { owner: await templateId(), title: 'ws write' })).toBe(0);
    socket.ws.close();
  });

  it('bounds guest spaces per address (RATE_LIMIT_GUEST_PER_HOUR)', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'true', RATE_LIMIT_GUEST_PER_HOUR: '2' });
    try {
      for (let i = 0; i < 2; i++) expect((await new HttpClient(limited.url).post('/api/chats', {})).status).toBe(201);
      const third = await new HttpClient(limited.url).post('/api/chats', {});
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      // Reads still work, and a guest already made goes on writing.
      expect((await new HttpClient(limited.url).get('/api/chats')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('integrations need a registered account', () => {
  const refused = [
    { name: 'Microsoft pasted token', call: (h: HttpClient) => h.post('/api/auth/microsoft/manual-token', { accessToken: 'x'.repeat(40) }), message: authTexts.accountRequiredFor.microsoft },
    { name: 'Microsoft device code', call: (h: HttpClient) => h.post('/api/auth/microsoft/device-code', {}), message: authTexts.accountRequiredFor.microsoft },
    { name: 'Microsoft redirect', call: (h: HttpClient) => h.get('/api/auth/microsoft/login'), message: authTexts.accountRequiredFor.microsoft },
    { name: 'Microsoft callback', call: (h: HttpClient) => h.get('/api/auth/microsoft/callback?code=abc&state=def'), message: authTexts.accountRequiredFor.microsoft },
    { name: 'a call', call: (h: HttpClient) => h.post('/api/twilio/voice/call', { phoneNumber: '+15551234567' }), message: authTexts.accountRequiredFor.calls },
    { name: 'an API key', call: (h: HttpClient) => h.post('/api/api-keys', { name: 'guest key' }), message: authTexts.accountRequiredFor.apiKeys },
    { name: 'the API key list', call: (h: HttpClient) => h.get('/api/api-keys'), message: authTexts.accountRequiredFor.apiKeys },
  ];
  for (const { name, call, message } of refused) {
    it(`answers 403 to a guest for ${name}, with what to do`, async () => {
      const { http } = await guest();
      const res = await call(http);
      expect(res.status).toBe(403);
      expect(res.text).toContain(message);
      // The visitor without a session (the template) is refused the same way, and no guest is made for it.
      const visitor = new HttpClient(server.url);
      const anonymous = await call(visitor);
      expect(anonymous.status).toBe(403);
      expect(visitor.cookieHeader).toBe('');
    });
  }

  it('refuses a guest a profile phone and goal calls, but not the rest of the profile', async () => {
    const { http } = await guest();
    const profile = (await http.get('/trpc/profile.get')).json.result.data.profile;
    const phone = await http.post('/trpc/profile.updateProfile', { ...profile, phone: '+15551234567' });
    expect(phone.status).toBe(403);
    expect(phone.text).toContain(authTexts.accountRequiredFor.phone);
    const name = await http.post('/trpc/profile.updateProfile', { ...profile, fullName: 'Guest Renamed' });
    expect(name.status).toBe(200);
    const goal = await http.post('/api/goals', { title: 'Call me', framework: 'SMART', dueDate: '2027-01-31', keyResults: [], cadence: 'weekly_call' });
    expect(goal.status).toBe(403);
    expect(goal.text).toContain(authTexts.accountRequiredFor.goalCalls);
  });

  it('lets a registered account reach them (the refusal is about guests)', async () => {
    const { http } = await signUp(server.url, `integrator_${Date.now()}`);
    expect((await http.post('/api/api-keys', { name: 'mine' })).status).toBe(201);
    const profile = (await http.get('/trpc/profile.get')).json.result.data.profile;
    expect((await http.post('/trpc/profile.updateProfile', { ...profile, phone: '+15551234567' })).status).toBe(200);
  });
});

describe('API keys have a scope', () => {
  async function keyOwner() {
    const { http, user } = await signUp(server.url, `scoped_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`);
    const created = await http.post('/api/api-keys', { name: 'script' });
    expect(created.status).toBe(201);
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${created.json.key}` } });
    return { http, user, script, key: created.json.key as string };
  }

  it('refuses account deletion with a key before any work: nothing is deleted', async () => {
    const { user, script } = await keyOwner();
    await script.post('/api/chats', { title: 'must survive' });
    const res = await script.post('/trpc/privacy.deleteAccount', { confirmation: 'DELETE' });
    expect(res.status).toBe(403);
    expect(res.text).toContain(apiKeyTexts.notWithApiKey);
    expect(await em().findOne(User, user.id)).not.toBeNull();
    expect(await em().count(Chat, { owner: user.id, title: 'must survive' })).toBe(1);
  });

  it('refuses export, sessions, keys, phone and integrations with a key; chats and the coach answer (goals need their scope)', async () => {
    const { script } = await keyOwner();
    for (const res of [
      await script.post('/trpc/privacy.exportMyData', {}),
      await script.get('/trpc/auth.sessions'),
      await script.post('/trpc/auth.endOtherSessions', {}),
      await script.get('/api/api-keys'),
      await script.post('/api/api-keys', { name: 'more' }),
      await script.post('/api/auth/microsoft/manual-token', { accessToken: 'x'.repeat(40) }),
      await script.post('/api/twilio/voice/call', { phoneNumber: '+15551234567' }),
    ]) {
      expect(res.status).toBe(403);
    }
    // The profile is no key's (no scope names it): closed to keys, reads and writes alike.
    expect((await script.get('/trpc/profile.get')).status).toBe(403);
    expect((await script.post('/trpc/profile.updateProfile', { fullName: 'Script', phone: '+15551234567' })).status).toBe(403);
    expect((await script.post('/api/chats', { title: 'fine' })).status).toBe(201);
    // Goals take the `goals` scope, which this key (made without scopes: `chat`) was not given.
    expect((await script.post('/api/goals', { title: 'fine', framework: 'SMART', dueDate: '2027-01-31', keyResults: [] })).status).toBe(403);
    expect((await script.get('/api/chats')).status).toBe(200);
  });

  it('takes an expiry of 1 to 365 days; an expired key answers 401', async () => {
    const { http, user } = await signUp(server.url, `expiring_${Date.now()}`);
    for (const expiresInDays of [0, 366, 1.5, 'x']) {
      expect((await http.post('/api/api-keys', { name: 'bad', expiresInDays })).status).toBe(400);
    }
    const created = await http.post('/api/api-keys', { name: 'short', expiresInDays: 1 });
    expect(created.status).toBe(201);
    expect(Date.parse(created.json.expiresAt) - Date.now()).toBeGreaterThan(86_000_000);
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${created.json.key}` } });
    expect((await script.get('/api/chats')).status).toBe(200);
    await em().getConnection().execute('update api_key set expires_at = ? where owner_id = ?', [new Date(Date.now() - 1000), user.id]);
    const expired = await script.get('/api/chats');
    expect(expired.status).toBe(401);
    expect(expired.text).toContain(apiKeyTexts.expiredKey);
  });

  it('holds the key limit under 20 parallel creates', async () => {
    const { http } = await signUp(server.url, `racer_${Date.now()}`);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => http.post('/api/api-keys', { name: `k${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(apiKeyLimits.maxKeys);
    expect(results.filter((r) => r.status === 409)).toHaveLength(20 - apiKeyLimits.maxKeys);
    expect((await http.get('/api/api-keys')).json.keys).toHaveLength(apiKeyLimits.maxKeys);
  });

  it('holds the goal limit under 20 parallel creates', async () => {
    const { http, user } = await signUp(server.url, `goaler_${Date.now()}`);
    // Close to the limit, then 20 at once: exactly the limit's worth pass.
    const orm = em();
    for (let i = 0; i < goalLimits.maxGoals - 5; i++) orm.create(Goal, { owner: user.id, framework: 'SMART', title: `g${i}`, dueDate: '2027-01-31', cadence: 'off' });
    await orm.flush();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => http.post('/api/goals', { title: `p${i}`, framework: 'SMART', dueDate: '2027-01-31', keyResults: [] })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(await em().count(Goal, { owner: user.id })).toBe(goalLimits.maxGoals);
  });
});

describe('sessions end everywhere', () => {
  it('closes the sockets of every session of a deleted account', async () => {
    const username = `deleter_${Date.now()}`;
    const { http } = await signUp(server.url, username);
    const other = new HttpClient(server.url);
    expect((await other.post('/api/auth/login', { username, password: 'secret123' })).status).toBe(200);
    const socket = openSocket('/ws', other.cookieHeader);
    expect(await socket.outcome).toBe('open');
    const deleted = await http.post('/trpc/privacy.deleteAccount', { confirmation: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await socket.closed).toBe(4401);
    expect((await other.get('/api/chats')).status).toBe(401);
  });

  it('re-reads an open socket’s session row: a row gone without any event closes the socket', async () => {
    const { http, user } = await signUp(server.url, `silent_${Date.now()}`);
    const socket = openSocket('/ws', http.cookieHeader);
    expect(await socket.outcome).toBe('open');
    // Deleted behind the store's back (as another instance's lost event would leave it).
    await em().nativeDelete(AuthSession, { user: user.id });
    expect(await socket.closed).toBe(4401);
  });

  it('does not count keep-alive PONGs as use of the session', async () => {
    const idle = await startTestServer({ DEMO_MODE: 'false', SESSION_IDLE_TIMEOUT_SECONDS: '60', SESSION_SOCKET_RECHECK_SECONDS: '1' });
    try {
      const { http } = await signUp(idle.url, `idle_${Date.now()}`);
      // The clock moves ahead in steps instead of a minute going by (the server runs in this
      // process); everything else runs in real time.
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      const ws = new WebSocket(`${idle.url.replace('http', 'ws')}/trpc`, { headers: { cookie: http.cookieHeader, origin: idle.url } });
      await new Promise((resolve) => ws.once('open', resolve));
      let closedWith: number | undefined;
      const closed = new Promise<number>((resolve) =>
        ws.once('close', (code) => {
          closedWith = code;
          resolve(code);
        }),
      );
      // Only keep-alive frames from here on: each step a PONG, then a PING whose PONG answer shows
      // the server has read both (a socket's messages are handled in order), then 5 s more.
      let stepsSent = 0;
      while (closedWith === undefined && stepsSent < 20) {
        const answered = new Promise<void>((resolve) => ws.once('message', () => resolve()));
        ws.send('PONG');
        ws.send('PING');
        await Promise.race([answered, closed]);
        if (closedWith !== undefined) break;
        stepsSent++;
        await vi.advanceTimersByTimeAsync(5_000);
      }
      // Closed as idle (with PONGs counted as use it stays open: the test times out)...
      expect(await closed).toBe(4401);
      // ...at the idle end, a minute after the last use before the socket opened, not sooner.
      expect(stepsSent).toBeGreaterThanOrEqual(11);
    } finally {
      vi.useRealTimers();
      await idle.stop();
    }
  });
});

describe('demo mode turned off', () => {
  it('ends the demo guests’ sessions at the next start, keeps their spaces for the idle job, and keeps access-key guests', async () => {
    const database = await freshDatabase();
    try {
      const on = await startTestServer({ DEMO_MODE: 'true', ACCESS_KEY: 'the-right-key', RATE_LIMIT_GUEST_PER_HOUR: '0', RATE_LIMIT_LOGIN_PER_ADDRESS: '0' }, database);
      const demoGuest = new HttpClient(on.url);
      const keyGuest = new HttpClient(on.url);
      try {
        expect((await demoGuest.post('/api/chats', { title: 'Demo guest chat' })).status).toBe(201);
        expect((await keyGuest.get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(200);
        expect((await keyGuest.post('/api/chats', { title: 'Key guest chat' })).status).toBe(201);
        const origins = (await on.deps.orm.em.fork().find(User, { isGuest: true }, { orderBy: { id: 'asc' } })).map((u) => u.guestOrigin);
        expect(origins).toEqual(['demo', 'access-key']);
      } finally {
        await on.stop();
      }

      const off = await startTestServer({ DEMO_MODE: 'false', ACCESS_KEY: 'the-right-key' }, database);
      try {
        const asBefore = (client: HttpClient) => new HttpClient(off.url, { headers: { cookie: client.cookieHeader } });
        const demoAgain = asBefore(demoGuest);
        expect((await demoAgain.get('/api/chats')).status).toBe(401);
        expect((await demoAgain.post('/api/chats', { title: 'after' })).status).toBe(401);
        const keyAgain = asBefore(keyGuest);
        const chats = await keyAgain.get('/api/chats');
        expect(chats.status).toBe(200);
        expect(JSON.stringify(chats.json)).toContain('Key guest chat');
        // The demo guest's space is left to the idle job, not deleted at start.
        expect(await off.deps.orm.em.fork().count(User, { isGuest: true, guestOrigin: 'demo' })).toBe(1);
      } finally {
        await off.stop();
      }
    } finally {
      await database.dispose();
    }
  });

  it('keeps a guest who registered: the account is no longer a guest', async () => {
    const { http, userId } = await guest();
    expect((await http.post('/api/auth/register', { username: `kept_${Date.now()}`, password: 'secret123', fullName: 'Kept Guest' })).status).toBe(201);
    const user = await em().findOneOrFail(User, userId);
    expect(user).toMatchObject({ isGuest: false, guestOrigin: null });
  });
});
