import type { EntityMetadata } from '@mikro-orm/core';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { User } from '../../src/server/db/entities/User.js';
import { saveConnection } from '../../src/server/features/microsoft/connections.js';
import { saveWritingStyle } from '../../src/server/features/writingStyle/writingStyleStore.js';
import { enforceDataRetention, startDataRetentionJob, temporaryChatIdleMs } from '../../src/server/features/privacy/dataRetention.js';
import { exportRules, neverExportedColumn, neverExportedEntity } from '../../src/server/features/privacy/exportRules.js';
import { checkExportRules } from '../../src/server/features/privacy/exportUserData.js';
import { findUserOwnedEntities, ownedBy, userOwnedEntities } from '../../src/server/features/privacy/userOwnedEntities.js';
import { privacyTexts } from '../../src/shared/texts/index.js';
import { eventually } from '../helpers/clients.js';
import { freshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The user's data rights: export, account deletion, data retention and storeChatHistory, against
// the real app on a fresh database. Which tables hold user rows is read from the ORM's metadata.
let app: TestServer;
let demo: TestServer;

beforeAll(async () => {
  [app, demo] = await Promise.all([startTestServer({ DEMO_MODE: 'false' }), startTestServer({ DEMO_MODE: 'true' })]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), demo?.stop()]);
});

let counter = 0;
async function newUser(server: TestServer = app) {
  counter += 1;
  const client = new HttpClient(server.url);
  const username = `priv${Date.now().toString(36)}${counter}`;
  const res = await client.post('/api/auth/register', {
    username,
    password: 'correct horse',
    fullName: `Person ${counter}`,
    jobTitle: 'Engineering Manager',
    company: 'Acme',
  });
  expect(res.status).toBe(201);
  return { client, id: res.json.user.id as number, username, password: 'correct horse' };
}

const trpc = {
  mutate: (client: HttpClient, path: string, input: unknown) => client.post(`/trpc/${path}`, input),
  query: (client: HttpClient, path: string) => client.get(`/trpc/${path}`),
};

// A user with a row in every table that exists today: settings, knowledge base, chats, messages.
async function userWithEverything(server: TestServer = app) {
  const user = await newUser(server);
  const marker = `marker-${counter}-${Math.random().toString(36).slice(2)}`;
  expect((await trpc.mutate(user.client, 'profile.updateProfile', { fullName: `Person ${counter}`, email: 'p@example.com', jobTitle: 'EM', company: 'Acme', phone: '+15551234567' })).status).toBe(200);
  expect((await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '365', shareAnonymousData: true, storeChatHistory: true })).status).toBe(200);
  expect(
    (
      await trpc.mutate(user.client, 'knowledgeBase.save', {
        useKnowledgeBase: true,
        fullName: `Person ${counter}`,
        jobTitle: 'Engineering Manager',
        company: 'Acme',
        emailTone: 'Humble',
        coachNotes: `Notes ${marker}`,
      })
    ).status,
  ).toBe(200);
  for (const title of [`First ${marker}`, `Second ${marker}`]) {
    const chat = await user.client.post('/api/chats', { title });
    expect(chat.status).toBe(201);
    const sent = await user.client.post(`/api/chats/${chat.json.id}/messages`, { role: 'user', content: `Message in ${title}` });
    expect(sent.status).toBe(201);
  }
  expect((await user.client.post('/api/api-keys', { name: `Key ${marker}` })).status).toBe(201);
  expect((await user.client.post('/api/memories', { text: `Memory ${marker}`, kind: 'preference' })).status).toBe(201);
  expect((await user.client.put('/api/memories/settings', { enabled: true })).status).toBe(200);
  // Nudge settings, and the weekly review they plan (a queued run).
  expect((await user.client.put('/api/nudges/settings', { ...defaultNudgeSettings, maxPerWeek: 3 })).status).toBe(200);
  const pushKeys = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };
  expect((await user.client.post('/api/push/subscriptions', { endpoint: `https://fcm.googleapis.com/fcm/send/${marker}`, keys: pushKeys })).status).toBe(201);
  // A rehearsal: its set-up, its own chat, and a report.
  const rehearsal = await user.client.post('/api/rehearsals', { counterpart: { name: `Sam ${marker}` }, situation: `Situation ${marker}`, goal: `Goal ${marker}`, difficulty: 'realistic' });
  expect(rehearsal.status).toBe(201);
  const goal = await user.client.post('/api/goals', { title: `Goal ${marker}`, framework: 'SMART', dueDate: '2099-01-31', keyResults: [{ title: 'Weeks to onboard', start: 6, target: 3, unit: 'weeks' }] });
  expect(goal.status).toBe(201);
  expect((await user.client.post(`/api/goals/${goal.json.id}/check-ins`, { keyResultId: goal.json.keyResults[0].id, value: 5, note: `Note ${marker}` })).status).toBe(201);
  await server.deps.orm.em.fork().getConnection().execute('insert into goal_reminder (owner_id, goal_id, created_at) values (?, ?, now())', [user.id, goal.json.id]);
  // A phone call's state, as the incoming-call webhook stores it (test/server/conversationRelay.test.ts).
  await server.deps.orm.em.fork().getConnection().execute("insert into phone_call (call_sid, owner_id, direction, created_at) values (?, ?, 'inbound', now())", [`CA${crypto.randomUUID().replaceAll('-', '')}`, user.id]);
  // A meeting prepared with the coach, as POST /api/meetings/{id}/prep stores it (test/server/meetings.test.ts).
  const prepChat = await user.client.post('/api/chats', { title: `Prep: Review ${marker}` });
  await server.deps.orm.em.fork().getConnection().execute(
    "insert into meeting_prep (owner_id, chat_id, event_id, subject, start_at, end_at, invite, created_at) values (?, ?, ?, ?, now(), now() + interval '1 hour', ?, now())",
    [user.id, prepChat.json.id, `AAMk-${marker}`, `Review ${marker}`, JSON.stringify({ organizer: { name: 'Lena', email: 'lena@contoso.example' }, attendees: [], location: '', isOnline: false, body: '' })],
  );
  // A debrief of a meeting, as POST /api/meetings/{id}/debrief stores it (test/server/debriefs.test.ts).
  await server.deps.orm.em.fork().getConnection().execute(
    "insert into debrief (owner_id, event_id, subject, start_at, end_at, chat_id, report, coach, created_at, updated_at) values (?, ?, ?, now() - interval '1 hour', now(), ?, ?, ?, now(), now())",
    [user.id, `AAMk-${marker}`, `Review ${marker}`, prepChat.json.id, JSON.stringify({ durationSeconds: 60, you: { name: 'Jane', talkShare: 0.5 }, speakers: [], agenda: null }), JSON.stringify({ by: 'offline', strengths: [], moments: [] })],
  );
  // The automatic debrief setting, as PUT /api/debriefs/settings stores it.
  await server.deps.orm.em.fork().getConnection().execute('insert into debrief_setting (owner_id, automatic, updated_at) values (?, true, now())', [user.id]);
  // Program nudges turned off (the nudge email's link).
  await server.deps.orm.em.fork().getConnection().execute('insert into program_setting (owner_id, nudges, updated_at) values (?, false, now())', [user.id]);
  // A group the organisation's identity provider put them in (SCIM), as the provisioning stores it.
  const groupId = crypto.randomUUID();
  await server.deps.orm.em.fork().getConnection().execute("insert into scim_group (id, organisation_id, display_name, created_at, updated_at) values (?, 1, 'Managers', now(), now())", [groupId]);
  await server.deps.orm.em.fork().getConnection().execute('insert into scim_group_member (group_id, user_id) values (?, ?)', [groupId, user.id]);
  // A Microsoft connection and a writing style profile, stored as the app stores them (the real
  // connect and analysis paths are tested in microsoft.*.test.ts and writingStyle.test.ts).
  const em = server.deps.orm.em.fork();
  await saveConnection(server.deps, em, user.id, 'email', {
    accessToken: `access-${marker}`,
    refreshToken: `refresh-${marker}`,
    expiresAt: new Date(Date.now() + 3_600_000),
    accountEmail: `${user.username}@contoso.example`,
  });
  await saveWritingStyle(em, user.id, {
    tone: 'Warm and direct',
    toneSource: 'markers',
    commonPhrases: [`phrase ${marker}`],
    greeting: 'Hi team,',
    signOff: 'Cheers,',
    structure: 'Short paragraphs',
    length: '40-80 words',
    emailsAnalyzed: 12,
    lastUpdated: new Date(),
  });
  // Wait for the offline coach's replies, so nothing changes while the test looks.
  for (let i = 0; i < 200; i += 1) {
    const chats = (await user.client.get('/api/chats')).json as Array<{ id: number }>;
    const pages = await Promise.all(chats.map((c) => user.client.get(`/api/chats/${c.id}/messages`)));
    if (pages.every((p) => (p.json as Array<{ status: string }>).every((m) => m.status !== 'streaming'))) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return { ...user, marker };
}

async function rowCounts(server: TestServer, userId: number) {
  const em = server.deps.orm.em.fork();
  const counts: Record<string, number> = {};
  for (const entity of userOwnedEntities(server.deps.orm)) counts[entity.name] = await em.count(entity.meta.class, ownedBy(entity, userId));
  return counts;
}

describe('which tables hold user rows (from the ORM metadata)', () => {
  it('finds the user, their settings, knowledge base, chats and the messages of those chats', () => {
    const owned = userOwnedEntities(app.deps.orm);
    const byName = Object.fromEntries(owned.map((e) => [e.name, e.path]));
    expect(byName).toMatchObject({ User: [], UserSettings: ['user'], KnowledgeBase: ['user'], Chat: ['owner'], Message: ['chat', 'owner'] });
  });

  it('has an export rule for every table that holds user rows', () => {
    const missing = userOwnedEntities(app.deps.orm).filter((entity) => !exportRules[entity.name]).map((e) => `${e.name} (${e.tableName})`);
    expect(missing, 'add these tables to src/server/features/privacy/exportRules.ts').toEqual([]);
    expect(() => checkExportRules(userOwnedEntities(app.deps.orm))).not.toThrow();
  });

  // A table another feature adds, reduced to what the discovery reads from its metadata.
  const realMetadata = () => [...app.deps.orm.getMetadata().getAll().values()];
  const newTable = (className: string, via: { name: string; target: string }) =>
    ({
      className,
      tableName: className.toLowerCase(),
      props: [{ name: via.name, kind: 'm:1', type: via.target, targetMeta: { className: via.target } }],
      properties: { [via.name]: { name: via.name, kind: 'm:1', type: via.target } },
    }) as unknown as EntityMetadata;

  it('fails for a new table holding user rows without an export rule, directly or through another table', () => {
    for (const table of [newTable('VoiceCall', { name: 'user', target: 'User' }), newTable('CallTranscript', { name: 'chat', target: 'Chat' })]) {
      const owned = findUserOwnedEntities([...realMetadata(), table]);
      expect(owned.map((e) => e.name)).toContain(table.className);
      expect(() => checkExportRules(owned)).toThrow(new RegExp(`${table.className}.*no export rule`));
    }
  });

  it('never exports a table of tokens or sessions, whatever its rule says, and never a secret column', () => {
    const owned = findUserOwnedEntities([...realMetadata(), newTable('MicrosoftToken', { name: 'user', target: 'User' })]);
    expect(() => checkExportRules(owned, { ...exportRules, MicrosoftToken: { export: true, section: 'tokens', title: 'Tokens' } })).toThrow(/can never be exported/);
    expect(() => checkExportRules(owned, { ...exportRules, MicrosoftToken: { export: false, reason: 'provider tokens are secrets' } })).not.toThrow();
    for (const [name, rule] of Object.entries(exportRules)) if (rule.export) expect(name).not.toMatch(neverExportedEntity);
    for (const column of ['passwordHash', 'accessToken', 'refreshToken', 'sessionId', 'clientSecret']) expect(column).toMatch(neverExportedColumn);
  });
});

describe('Export my data', () => {
  it('writes every exported table with exactly the rows of the user, and nothing secret', async () => {
    const jane = await userWithEverything();
    const other = await userWithEverything();
    const res = await trpc.mutate(jane.client, 'privacy.exportMyData', { format: 'json' });
    expect(res.status).toBe(200);
    const file = res.json.result.data as { fileName: string; mimeType: string; content: string };
    expect(file.fileName).toMatch(/^ai-coach-export-\d{4}-\d{2}-\d{2}\.json$/);
    expect(file.mimeType).toBe('application/json');
    const data = JSON.parse(file.content);

    const counts = await rowCounts(app, jane.id);
    for (const entity of userOwnedEntities(app.deps.orm)) {
      const rule = exportRules[entity.name]!;
      if (!rule.export) continue;
      const section = data[rule.section];
      const exported = Array.isArray(section) ? section.length : section ? 1 : 0;
      expect(exported, `${entity.name} in section ${rule.section}`).toBe(counts[entity.name]);
      expect(counts[entity.name], `the test user has rows in ${entity.name}`).toBeGreaterThan(0);
    }
    expect(data.account).toMatchObject({ id: jane.id, fullName: expect.any(String), jobTitle: 'EM' });
    expect(data.settings).toMatchObject({ email: 'p@example.com', phone: '+15551234567', dataRetention: '365' });
    expect(data.knowledgeBase).toMatchObject({ coachNotes: `Notes ${jane.marker}`, emailTone: 'Humble' });
    expect(data.chats.map((c: { title: string }) => c.title)).toEqual(expect.arrayContaining([`First ${jane.marker}`, `Second ${jane.marker}`]));
    expect(data.messages.map((m: { content: string }) => m.content)).toContain(`Message in First ${jane.marker}`);

    const stored = await app.deps.orm.em.fork().findOneOrFail(User, jane.id);
    expect(file.content).not.toContain(stored.passwordHash!);
    expect(file.content).not.toMatch(/password|usernameKey/i);
    const sessionCookie = jane.client.cookieHeader.split('=').slice(1).join('=');
    expect(file.content).not.toContain(sessionCookie);
    expect(file.content).not.toContain(other.marker);
    // The connection is listed, its tokens never: neither the plain text nor the sealed form.
    expect(data.microsoftConnections).toEqual([expect.objectContaining({ service: 'email', accountEmail: `${jane.username}@contoso.example` })]);
    expect(file.content).not.toContain(`access-${jane.marker}`);
    expect(file.content).not.toContain(`refresh-${jane.marker}`);
    expect(file.content).not.toMatch(/sealed|keyId/i);
    expect(data.writingStyle).toMatchObject({ greeting: 'Hi team,', signOff: 'Cheers,' });
  });

  it('writes the same as Markdown: account, settings, knowledge base and each chat as a conversation', async () => {
    const jane = await userWithEverything();
    const res = await trpc.mutate(jane.client, 'privacy.exportMyData', { format: 'markdown' });
    expect(res.status).toBe(200);
    const file = res.json.result.data as { fileName: string; mimeType: string; content: string };
    expect(file.fileName).toMatch(/\.md$/);
    expect(file.mimeType).toBe('text/markdown');
    for (const text of ['# AI Coach data export', '## Account', '## Profile and settings', '## Knowledge base', '## Chats', `### First ${jane.marker}`, `**You**`, `Message in Second ${jane.marker}`, `Notes ${jane.marker}`, 'p@example.com']) {
      expect(file.content).toContain(text);
    }
    expect(file.content).not.toMatch(/password/i);
  });

  it('refuses an unknown format and needs a signed-in user', async () => {
    const jane = await newUser();
    expect((await trpc.mutate(jane.client, 'privacy.exportMyData', { format: 'xml' })).status).toBe(400);
    expect((await trpc.mutate(new HttpClient(app.url), 'privacy.exportMyData', { format: 'json' })).status).toBe(401);
  });
});

describe('Delete my account', () => {
  it('removes every row of the user in every table, ends the session, and leaves other users alone', async () => {
    const jane = await userWithEverything();
    const sam = await userWithEverything();
    const samBefore = await rowCounts(app, sam.id);
    const oldCookie = jane.client.cookieHeader;

    const res = await trpc.mutate(jane.client, 'privacy.deleteAccount', { confirmation: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join(';')).toMatch(/ai_coach_session=;|Max-Age=0/i);

    const left = await rowCounts(app, jane.id);
    expect(Object.values(left).every((n) => n === 0), JSON.stringify(left)).toBe(true);
    expect(await rowCounts(app, sam.id)).toEqual(samBefore);

    // The old cookie reaches nothing: no user, no data, no sign-in.
    const replay = (path: string, method = 'GET') => fetch(app.url + path, { method, headers: { cookie: oldCookie, origin: app.url } });
    expect((await (await replay('/api/auth/session')).json()).user ?? null).toBeNull();
    expect((await replay('/api/chats')).status).toBe(401);
    expect((await replay('/trpc/knowledgeBase.get')).status).toBe(401);
    const login = await new HttpClient(app.url).post('/api/auth/login', { username: jane.username, password: jane.password });
    expect(login.status).toBe(401);
  });

  it('refuses without the typed DELETE and changes nothing', async () => {
    const jane = await userWithEverything();
    const before = await rowCounts(app, jane.id);
    for (const confirmation of ['delete', 'DELETE ', '', undefined]) {
      const res = await trpc.mutate(jane.client, 'privacy.deleteAccount', { confirmation });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toBe(privacyTexts.deleteConfirmMismatch);
    }
    expect(await rowCounts(app, jane.id)).toEqual(before);
    expect((await jane.client.get('/api/chats')).status).toBe(200);
  });

  it('refuses to delete the shared demo account in demo mode, with a clear message', async () => {
    const visitor = new HttpClient(demo.url);
    const before = await rowCounts(demo, 1);
    const res = await trpc.mutate(visitor, 'privacy.deleteAccount', { confirmation: 'DELETE' });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toBe(privacyTexts.demoAccountNotDeletable);
    expect(await rowCounts(demo, 1)).toEqual(before);
    expect(before.User).toBe(1);
  });

  it('lets a real account delete itself in demo mode; afterwards the visitor is the demo user again', async () => {
    const jane = await userWithEverything(demo);
    expect((await trpc.mutate(jane.client, 'privacy.deleteAccount', { confirmation: 'DELETE' })).status).toBe(200);
    expect(Object.values(await rowCounts(demo, jane.id)).every((n) => n === 0)).toBe(true);
    expect((await jane.client.get('/api/auth/session')).json.user.id).toBe(1);
  });
});

describe('data retention', () => {
  const day = 24 * 60 * 60 * 1000;

  // Chats last active 20, 60, 120, 300 and 400 days ago, each with a message of that age and a fresh one.
  async function agedChats(server: TestServer, userId: number) {
    const em = server.deps.orm.em.fork();
    const now = Date.now();
    const ages = [20, 60, 120, 300, 400];
    for (const age of ages) {
      const at = new Date(now - age * day);
      const chat = em.create(Chat, { owner: userId, title: `Idle ${age} days`, isPinned: false, isTemporary: false, createdAt: at, updatedAt: at });
      em.create(Message, { chat, role: 'user', content: `old ${age}`, status: 'complete', createdAt: at });
    }
    // A chat in use today, holding messages of every age.
    const active = em.create(Chat, { owner: userId, title: 'In use', isPinned: false, isTemporary: false, createdAt: new Date(now - 500 * day), updatedAt: new Date(now) });
    for (const age of ages) em.create(Message, { chat: active, role: 'user', content: `active ${age}`, status: 'complete', createdAt: new Date(now - age * day) });
    em.create(Message, { chat: active, role: 'user', content: 'active 0', status: 'complete', createdAt: new Date(now) });
    await em.flush();
  }

  async function remaining(server: TestServer, userId: number) {
    const em = server.deps.orm.em.fork();
    const chats = (await em.find(Chat, { owner: userId })).map((c) => c.title).filter((t) => t.startsWith('Idle') || t === 'In use').sort();
    const messages = (await em.find(Message, { chat: { owner: userId } })).map((m) => m.content).filter((c) => /^(old|active) \d+$/.test(c)).sort();
    return { chats, messages };
  }

  it.each([
    ['30', [20], [0, 20]],
    ['90', [20, 60], [0, 20, 60]],
    ['180', [20, 60, 120], [0, 20, 60, 120]],
    ['365', [20, 60, 120, 300], [0, 20, 60, 120, 300]],
    ['forever', [20, 60, 120, 300, 400], [0, 20, 60, 120, 300, 400]],
    ['default (no settings saved: 90)', [20, 60], [0, 20, 60]],
  ] as const)('at %s days deletes the chats and messages older than the setting', async (setting, keptChats, keptActive) => {
    const user = await newUser();
    if (!setting.startsWith('default')) {
      expect((await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: setting, shareAnonymousData: false, storeChatHistory: true })).status).toBe(200);
    }
    const bystander = await newUser();
    await agedChats(app, user.id);
    await agedChats(app, bystander.id);
    await trpc.mutate(bystander.client, 'profile.updatePrivacy', { dataRetention: 'forever', shareAnonymousData: false, storeChatHistory: true });

    await enforceDataRetention(app.deps.orm);

    const left = await remaining(app, user.id);
    expect(left.chats).toEqual([...keptChats.map((age) => `Idle ${age} days`), 'In use'].sort());
    expect(left.messages).toEqual([...keptChats.map((age) => `old ${age}`), ...keptActive.map((age) => `active ${age}`)].sort());
    expect((await remaining(app, bystander.id)).chats).toHaveLength(6);
  });

  it('runs when the server starts', async () => {
    const database = await freshDatabase();
    let server = await startTestServer({ DEMO_MODE: 'false' }, database);
    try {
      const user = await newUser(server);
      await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '30', shareAnonymousData: false, storeChatHistory: true });
      await agedChats(server, user.id);
      await server.stop();
      server = await startTestServer({ DEMO_MODE: 'false' }, database);
      expect((await remaining(server, user.id)).chats).toEqual(['Idle 20 days', 'In use']);
    } finally {
      await server.stop();
      await database.dispose();
    }
  });
});

describe('the data retention job', () => {
  const day = 24 * 60 * 60 * 1000;

  it('runs again after each interval and deletes what became old since the run before', async () => {
    const user = await newUser();
    expect((await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '30', shareAnonymousData: false, storeChatHistory: true })).status).toBe(200);
    const em = app.deps.orm.em.fork();
    const at = (days: number) => new Date(Date.now() - days * day);
    const chat = em.create(Chat, { owner: user.id, title: 'Ageing chat', isPinned: false, isTemporary: false, createdAt: at(29), updatedAt: at(29) });
    em.create(Message, { chat, role: 'user', content: 'ageing message', status: 'complete', createdAt: at(29) });
    await em.flush();
    const titles = async () => (await app.deps.orm.em.fork().find(Chat, { owner: user.id })).map((c) => c.title);

    const job = startDataRetentionJob(app.deps.orm, app.deps.log, 100);
    try {
      await job.firstRun;
      expect(await titles()).toEqual(['Ageing chat']);
      // Two more days go by for the chat: it is now older than the user's 30 days.
      await app.deps.orm.em.fork().nativeUpdate(Chat, { id: chat.id }, { updatedAt: at(31) });
      await app.deps.orm.em.fork().nativeUpdate(Message, { chat: chat.id }, { createdAt: at(31) });

      // No call from the test: the job's own next run deletes it.
      await eventually(async () => (await titles()).length === 0, 5_000);
      expect(await app.deps.orm.em.fork().count(Message, { chat: chat.id })).toBe(0);
    } finally {
      await job.stop();
    }
  });

  it('stops running once stopped', async () => {
    const user = await newUser();
    expect((await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '30', shareAnonymousData: false, storeChatHistory: true })).status).toBe(200);
    // The schedule's ticks come when the test moves its clock on; everything else runs in real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const job = startDataRetentionJob(app.deps.orm, app.deps.log, 50);
      await job.firstRun;
      await job.stop();
      const em = app.deps.orm.em.fork();
      em.create(Chat, { owner: user.id, title: 'Old after stop', isPinned: false, isTemporary: false, createdAt: new Date(Date.now() - 40 * day), updatedAt: new Date(Date.now() - 40 * day) });
      await em.flush();
      // Ten intervals go by, each a tick a running schedule would start a run on; stop() waits for
      // a run under way, so one started by any of them has finished before the chats are read.
      vi.advanceTimersByTime(500);
      await job.stop();
    } finally {
      vi.useRealTimers();
    }
    expect((await app.deps.orm.em.fork().find(Chat, { owner: user.id })).map((c) => c.title)).toEqual(['Old after stop']);
  });
});

describe('storeChatHistory off', () => {
  it('keeps a new chat only until the user leaves it for another one, or leaves it idle', async () => {
    const user = await newUser();
    const kept = await user.client.post('/api/chats', { title: 'Kept from before' });
    await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '90', shareAnonymousData: false, storeChatHistory: false });

    const first = await user.client.post('/api/chats', {});
    expect(first.json.isTemporary).toBe(true);
    expect((await user.client.post(`/api/chats/${first.json.id}/messages`, { role: 'user', content: 'Private thoughts' })).status).toBe(201);
    const second = await user.client.post('/api/chats', {});
    const ids = ((await user.client.get('/api/chats')).json as Array<{ id: number }>).map((c) => c.id);
    expect(ids).toContain(kept.json.id);
    expect(ids).toContain(second.json.id);
    expect(ids).not.toContain(first.json.id);

    // Left open and idle: removed by the retention job after an hour.
    await enforceDataRetention(app.deps.orm, new Date(Date.now() + temporaryChatIdleMs - 60_000));
    expect(((await user.client.get('/api/chats')).json as Array<{ id: number }>).map((c) => c.id)).toContain(second.json.id);
    await enforceDataRetention(app.deps.orm, new Date(Date.now() + temporaryChatIdleMs + 60_000));
    const after = ((await user.client.get('/api/chats')).json as Array<{ id: number }>).map((c) => c.id);
    expect(after).toEqual([kept.json.id]);
  });

  it('keeps chats again once switched back on', async () => {
    const user = await newUser();
    await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '90', shareAnonymousData: false, storeChatHistory: false });
    await trpc.mutate(user.client, 'profile.updatePrivacy', { dataRetention: '90', shareAnonymousData: false, storeChatHistory: true });
    const chat = await user.client.post('/api/chats', {});
    expect(chat.json.isTemporary).toBe(false);
  });
});
