import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { User } from '../../src/server/db/entities/User.js';
import type { ProcedureMeta } from '../../src/server/trpc/apiKeyScopes.js';
import { appRouter } from '../../src/server/trpc/root.js';
import { apiKeyScopes } from '../../src/shared/schemas/apiKeys.js';
import { apiKeyTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { arbitraryFromZod } from '../helpers/zodArbitrary.js';

// Who a request acts as (docs/architecture.md, "Who a request acts as"), through the real server: a demo visitor never acts on
// the demo template (whatever they call), the samples' chat ids keep naming a visitor's copies
// after their first write, and an API key reaches only what its scopes open, in the procedures
// and in the coach's context.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let demo: TestServer;
let configured: TestServer;
let graph: FakeGraph;
let openai: FakeOpenAI;

beforeAll(async () => {
  [graph, openai] = await Promise.all([startFakeGraph(), startFakeOpenAI()]);
  [demo, configured] = await Promise.all([
    // One proxy in front: each visitor's address comes from X-Forwarded-For.
    startTestServer({ DEMO_MODE: 'true', TRUST_PROXY: '1', RATE_LIMIT_GUEST_PER_HOUR: '0', RATE_LIMIT_LOGIN_PER_ADDRESS: '0', RATE_LIMIT_CHAT_PER_MINUTE: '0' }),
    startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.url, RATE_LIMIT_CHAT_PER_MINUTE: '0' }),
  ]);
});
afterAll(async () => {
  await Promise.all([demo?.stop(), configured?.stop()]);
  await Promise.all([graph?.close(), openai?.close()]);
});
beforeEach(() => {
  graph.reset();
  openai.reset();
});

type ProcedureDef = { type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[]; meta?: ProcedureMeta };
const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures).map(([path, procedure]) => ({
  path,
  type: procedure._def.type,
  input: procedure._def.inputs[0],
  meta: procedure._def.meta,
}));

/** A valid input for a procedure, generated from its own schema (the same every run). */
function sampleInput(input: z.ZodType | undefined, seed: number): unknown {
  if (!input) return undefined;
  return fc.sample(arbitraryFromZod(input), { numRuns: 1, seed })[0];
}

/** Calls a procedure over /trpc as `client` (a query by GET, a mutation by POST); never throws. */
async function call(client: HttpClient, procedure: { path: string; type: string }, input: unknown) {
  try {
    if (procedure.type === 'query') {
      const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      return await client.get(`/trpc/${procedure.path}${query}`);
    }
    return await client.post(`/trpc/${procedure.path}`, input ?? {});
  } catch (error) {
    return { status: 0, json: undefined, text: String(error), headers: new Headers() };
  }
}

const demoEm = () => demo.deps.orm.em.fork();
const templateId = async () => (await demoEm().findOneOrFail(User, { isDemo: true })).id;

/**
 * Everything of the template's: its own row, and the rows of every table that names a user
 * (owner_id, user_id), with the messages of its chats and each chat's last activity.
 */
async function templateFootprint(): Promise<Record<string, unknown>> {
  const id = await templateId();
  const connection = demoEm().getConnection();
  const columns: Array<{ table_name: string; column_name: string }> = await connection.execute(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name in ('owner_id', 'user_id') order by table_name, column_name`,
  );
  const footprint: Record<string, unknown> = {};
  for (const { table_name, column_name } of columns) {
    const [row] = await connection.execute(`select count(*)::int as n from "${table_name}" where "${column_name}" = ?`, [id]);
    footprint[`${table_name}.${column_name}`] = row.n;
  }
  footprint.user = await connection.execute('select username, full_name, job_title, company, password_hash from app_user where id = ?', [id]);
  footprint.chats = await connection.execute('select id, title, is_pinned, updated_at::text from chat where owner_id = ? order by id', [id]);
  footprint.messages = await connection.execute(
    'select m.id, m.content, m.status from message m join chat c on c.id = m.chat_id where c.owner_id = ? order by m.id',
    [id],
  );
  return footprint;
}

function visitorFrom(address: string, browser: string) {
  return new HttpClient(demo.url, { headers: { 'x-forwarded-for': address, 'user-agent': browser } });
}

describe('a demo visitor never acts as the template', () => {
  it('exports a visitor’s own space: never another visitor’s address or browser, and nothing is written to the template', async () => {
    const before = await templateFootprint();
    const first = visitorFrom('203.0.113.7', 'First-Visitor-Browser/1.0');
    const firstExport = await first.post('/trpc/privacy.exportMyData', { format: 'json' });
    expect(firstExport.status).toBe(200);

    const second = visitorFrom('198.51.100.9', 'Second-Visitor-Browser/2.0');
    const secondExport = await second.post('/trpc/privacy.exportMyData', { format: 'json' });
    expect(secondExport.status).toBe(200);
    const file = secondExport.json.result.data.content as string;
    expect(file).not.toContain('203.0.113.7');
    expect(file).not.toContain('First-Visitor-Browser');
    // A visitor who never wrote has the sample data and nothing else: the four sample chats.
    const exported = JSON.parse(file) as { chats: Array<{ title: string }> };
    const samples = (before.chats as Array<{ title: string }>).map((c) => c.title).sort();
    expect(exported.chats.map((c) => c.title).sort()).toEqual(samples);
    // The export acted on the visitor's own space: the template holds no event and no session.
    expect(await templateFootprint()).toEqual(before);
  });

  it('leaves the template as it was whatever a visitor calls: every procedure, with inputs its schema accepts', async () => {
    const before = await templateFootprint();
    let mutations = 0;
    for (const [index, procedure] of procedures.entries()) {
      if (procedure.type === 'subscription') continue;
      if (procedure.type === 'mutation') mutations += 1;
      // A new visitor for each call: every mutation is a first write, every query a template read.
      const visitor = visitorFrom(`192.0.2.${(index % 250) + 1}`, `Audit-${procedure.path}`);
      const res = await call(visitor, procedure, sampleInput(procedure.input, 20261127 + index));
      expect(res.status, `${procedure.path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(mutations).toBeGreaterThan(40);
    expect(await templateFootprint()).toEqual(before);
  });
});

describe('the samples’ ids after a first write', () => {
  it('answers GET /api/chats/1/messages with the visitor’s copy of sample chat 1 after a first write elsewhere, and with what they add to it', async () => {
    const visitor = new HttpClient(demo.url);
    const list = (await visitor.get('/api/chats')).json as Array<{ id: number; title: string }>;
    const first = list.reduce((a, b) => (a.id < b.id ? a : b));
    expect(first.id).toBe(1);
    const sample = (await visitor.get('/api/chats/1/messages')).json as Array<{ content: string }>;
    expect(sample.length).toBeGreaterThan(0);

    // The first write is a goal: the visitor now has a space of their own.
    const goal = await visitor.post('/api/goals', { title: 'Grow into a director role', framework: 'SMART', dueDate: '2027-06-30', keyResults: [] });
    expect(goal.status).toBe(201);
    expect(visitor.cookieHeader).toMatch(/ai_coach_session=/);

    const after = await visitor.get('/api/chats/1/messages');
    expect(after.status).toBe(200);
    expect(after.json.map((m: { content: string }) => m.content)).toEqual(sample.map((m) => m.content));
    expect((await visitor.get('/api/chats')).json.find((c: { id: number }) => c.id === 1)?.title).toBe(first.title);

    expect((await visitor.post('/api/chats/1/messages', { content: 'Added to my copy' })).status).toBe(201);
    const mine = await visitor.get('/api/chats/1/messages');
    expect(mine.json.map((m: { content: string }) => m.content)).toContain('Added to my copy');
    // The template, and so every other visitor, is untouched.
    const other = await new HttpClient(demo.url).get('/api/chats/1/messages');
    expect(other.json.map((m: { content: string }) => m.content)).toEqual(sample.map((m) => m.content));
  });
});

// ---- API keys -------------------------------------------------------------------------------

const hour = 3_600_000;
const inHours = (h: number) => new Date(Math.floor((Date.now() + h * hour) / 60_000) * 60_000).toISOString();
let owners = 0;

/** A registered account with Microsoft Calendar and Email connected to a fake mailbox holding one meeting and one email. */
async function connectedOwner(): Promise<{ http: HttpClient; box: FakeMailbox }> {
  const name = `key_owner_${++owners}_${Date.now()}`;
  const tokens = [`cal-${name}`, `mail-${name}`];
  const box = graph.addMailbox({ tokens, displayName: `Owner ${owners}`, mail: `${name}@contoso.example` });
  const { http } = await signUp(configured.url, name, `Owner ${owners}`);
  expect((await http.post('/api/auth/microsoft/manual-token', { token: tokens[0], service: 'microsoft_calendar' })).status).toBe(200);
  expect((await http.post('/api/auth/microsoft/manual-token', { token: tokens[1], service: 'microsoft_email' })).status).toBe(200);
  box.addEvents([{ subject: 'Pipeline review with Lena', start: inHours(3), end: inHours(4) }]);
  box.addMessages([{ subject: 'Budget numbers from Priya', fromName: 'Priya Shah', fromAddress: 'priya@contoso.example' }]);
  return { http, box };
}

async function keyFor(http: HttpClient, scopes?: readonly string[]) {
  const created = await http.post('/api/api-keys', { name: `key ${scopes?.join(' ') ?? 'default'}`, ...(scopes ? { scopes } : {}) });
  expect(created.status, created.text).toBe(201);
  return { script: bearer(created.json.key as string), created: created.json as { scopes: string[] } };
}

function bearer(key: string, url = configured.url) {
  return new HttpClient(url, { origin: false, headers: { authorization: `Bearer ${key}` } });
}

// The coach's own requests: memory extraction also asks the model after a reply, with a JSON schema.
const coachRequests = () => openai.requests.filter((r) => !(r.body as { response_format?: unknown }).response_format);
const systemText = () => (coachRequests().at(-1)?.body.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n\n');

/** Posts a message asking about the day's meetings and mail, waits for the coach's reply, and answers the context the model was given. */
async function contextOfAMessage(client: HttpClient) {
  openai.reset();
  const chat = await client.post('/api/chats', {});
  expect(chat.status).toBe(201);
  expect((await client.post(`/api/chats/${chat.json.id}/messages`, { content: 'What meetings and emails are on my plate today?' })).status).toBe(201);
  await eventually(async () => {
    const messages = (await client.get(`/api/chats/${chat.json.id}/messages`)).json as Array<{ role: string; status: string }>;
    return messages.at(-1)?.role === 'assistant' && messages.at(-1)?.status !== 'streaming';
  }, 30_000);
  return systemText();
}

describe('API key scopes', () => {
  it('chooses scopes at creation (chat by default), lists them, and answers an unknown or empty scope list 400', async () => {
    const { http } = await signUp(configured.url, `scopes_${Date.now()}`);
    const unknown = await http.post('/api/api-keys', { name: 'bad', scopes: ['chat', 'calendar:write'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe(apiKeyTexts.unknownScope('calendar:write'));
    expect((await http.post('/api/api-keys', { name: 'none', scopes: [] })).status).toBe(400);
    expect((await http.post('/api/api-keys', { name: 'not a list', scopes: 'chat' })).status).toBe(400);

    expect((await keyFor(http)).created.scopes).toEqual(['chat']);
    expect((await keyFor(http, ['mail:read', 'goals', 'goals'])).created.scopes).toEqual(['goals', 'mail:read']);
    const listed = (await http.get('/api/api-keys')).json.keys.map((k: { scopes: string[] }) => k.scopes);
    expect(listed).toEqual(expect.arrayContaining([['chat'], ['goals', 'mail:read']]));
  });

  it('keeps a key made before scopes to chat: chats answer, goals and meetings do not', async () => {
    const { http, user } = await signUp(configured.url, `old_key_${Date.now()}`);
    // A row as it was before scopes existed: the column's default is what the migration gives it.
    const key = 'aic_an-old-key-made-before-scopes-existed-0123456789';
    const { hashApiKey } = await import('../../src/server/features/apiKeys/apiKeyAuth.js');
    await configured.deps.orm.em
      .fork()
      .getConnection()
      .execute('insert into api_key (owner_id, name, prefix, key_hash, created_at) values (?, ?, ?, ?, ?)', [user.id, 'old', key.slice(0, 12), hashApiKey(key), new Date()]);
    expect((await http.get('/api/api-keys')).json.keys[0].scopes).toEqual(['chat']);
    const script = bearer(key);
    expect((await script.get('/api/chats')).status).toBe(200);
    expect((await script.post('/api/chats', { title: 'From an old key' })).status).toBe(201);
    expect((await script.get('/api/goals')).status).toBe(403);
    expect((await script.get('/api/meetings')).status).toBe(403);
  });

  it('opens the meetings list only to a key with calendar:read', async () => {
    const { http } = await connectedOwner();
    const { script: chatOnly } = await keyFor(http, ['chat', 'mail:read', 'goals', 'memories']);
    const refused = await chatOnly.get('/api/meetings');
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(apiKeyTexts.missingScope('calendar:read'));
    const { script: calendar } = await keyFor(http, ['calendar:read']);
    const listed = await calendar.get('/api/meetings');
    expect(listed.status).toBe(200);
    expect(listed.json.meetings.map((m: { subject: string }) => m.subject)).toEqual(['Pipeline review with Lena']);
  });

  it('refuses a rehearsal of a meeting to a key without calendar:read, before the calendar is read (403 whether the event exists or not)', async () => {
    const { http, box } = await connectedOwner();
    box.addEvents([{ subject: 'Contract talk with Kai', start: inHours(5), end: inHours(6), attendees: [{ name: 'Kai Berg', email: 'kai@contoso.example', response: 'accepted' }] }]);
    const meeting = ((await http.get('/api/meetings')).json.meetings as Array<{ id: string; subject: string }>).find((m) => m.subject === 'Contract talk with Kai')!;
    const body = (meetingId: string) => ({ meetingId, situation: 'The contract renewal', goal: 'Agree the price', difficulty: 'realistic' });
    const { script: chatOnly } = await keyFor(http, ['chat']);
    const seen = graph.requests.length;
    for (const id of [meeting.id, 'AAMkADoesNotExist']) {
      const res = await chatOnly.post('/api/rehearsals', body(id));
      expect(res.status, id).toBe(403);
      expect(res.json.message).toBe(apiKeyTexts.missingScope('calendar:read'));
    }
    expect(graph.requests.length).toBe(seen);
    expect((await chatOnly.get('/api/rehearsals')).json.rehearsals).toEqual([]);
    // Without a meeting the key rehearses as before; with calendar:read it may name one.
    expect((await chatOnly.post('/api/rehearsals', { counterpart: { name: 'Kai Berg' }, situation: 'The contract renewal', goal: 'Agree the price', difficulty: 'realistic' })).status).toBe(201);
    const { script: calendar } = await keyFor(http, ['chat', 'calendar:read']);
    const made = await calendar.post('/api/rehearsals', body(meeting.id));
    expect(made.status, made.text).toBe(201);
  });

  it('gives the coach a key’s meetings only with calendar:read and its mail only with mail:read', async () => {
    const { http } = await connectedOwner();
    // The browser session: both (the meeting and the email reach the model at all).
    const session = await contextOfAMessage(http);
    expect(session).toContain('Pipeline review with Lena');
    expect(session).toContain('Budget numbers from Priya');

    const cases: Array<{ scopes: string[]; meeting: boolean; mail: boolean }> = [
      { scopes: ['chat'], meeting: false, mail: false },
      { scopes: ['chat', 'calendar:read'], meeting: true, mail: false },
      { scopes: ['chat', 'mail:read'], meeting: false, mail: true },
      { scopes: ['chat', 'calendar:read', 'mail:read'], meeting: true, mail: true },
    ];
    for (const { scopes, meeting, mail } of cases) {
      const { script } = await keyFor(http, scopes);
      const context = await contextOfAMessage(script);
      expect(context.includes('Pipeline review with Lena'), `meeting with ${scopes.join(', ')}`).toBe(meeting);
      expect(context.includes('Budget numbers from Priya'), `mail with ${scopes.join(', ')}`).toBe(mail);
    }
  });

  it('never lets a key write an invite or mail the attendees, whatever its scopes', async () => {
    const { http } = await connectedOwner();
    const { script } = await keyFor(http, apiKeyScopes);
    const meeting = (await http.get('/api/meetings')).json.meetings[0] as { id: string };
    const agenda = { id: meeting.id, text: '1. Numbers\n2. Risks' };
    for (const path of ['meetings.saveAgenda', 'meetings.emailAgenda']) {
      const res = await script.post(`/trpc/${path}`, agenda);
      expect(res.status, path).toBe(403);
      expect(res.json.error.message).toBe(apiKeyTexts.notWithApiKey);
    }
    expect(graph.requests.filter((r) => r.method === 'PATCH' || r.path.endsWith('/sendMail'))).toEqual([]);
  });

  it('opens goals and memories to their own scopes only', async () => {
    const { http } = await signUp(configured.url, `goal_scope_${Date.now()}`);
    const goal = { title: 'Ship it', framework: 'SMART', dueDate: '2027-01-31', keyResults: [] };
    const { script: chat } = await keyFor(http, ['chat']);
    expect(await chat.post('/api/goals', goal)).toMatchObject({ status: 403, json: { message: apiKeyTexts.missingScope('goals') } });
    expect(await chat.get('/api/memories')).toMatchObject({ status: 403, json: { message: apiKeyTexts.missingScope('memories') } });
    const { script: goals } = await keyFor(http, ['goals']);
    expect((await goals.post('/api/goals', goal)).status).toBe(201);
    expect((await goals.get('/api/chats')).status).toBe(403);
    const { script: memories } = await keyFor(http, ['memories']);
    expect((await memories.get('/api/memories')).status).toBe(200);
  });

  it('closes every procedure that declares no key scope to a key holding all of them (the allow-list)', async () => {
    const { http } = await signUp(configured.url, `allow_list_${Date.now()}`);
    const { script } = await keyFor(http, apiKeyScopes);
    const closed = procedures.filter((p) => p.type !== 'subscription' && !p.meta?.keys);
    expect(closed.length).toBeGreaterThan(40);
    for (const [index, procedure] of closed.entries()) {
      const res = await call(script, procedure, sampleInput(procedure.input, 7 + index));
      expect(res.status, procedure.path).toBe(403);
      expect(res.json?.error?.message, procedure.path).toBe(apiKeyTexts.notWithApiKey);
    }
  });
});
