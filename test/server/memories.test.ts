import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Memory } from '../../src/server/db/entities/Memory.js';
import { enforceDataRetention } from '../../src/server/features/privacy/dataRetention.js';
import { assembleCoachContext } from '../../src/server/features/coach/coachContext.js';
import { noFacts } from '../../src/server/providers/ai/contract.js';
import { loadCoachMemories } from '../../src/server/features/memories/memoryFacts.js';
import { renderCoachContext } from '../../src/server/providers/ai/renderContext.js';
import { extractByRules, explicitRemember, kindOf, nearDuplicate, saysDone } from '../../src/server/features/memories/memoryRules.js';
import { isConditional, judgeMemory, mayLeaveTheApp, sensitiveTopicsOf } from '../../src/shared/memoryPolicy.js';
import { decideUndecidedMemories } from '../../src/server/features/memories/memoryStore.js';
import { backfillSearchVectors } from '../../src/server/features/search/messageSearchIndex.js';
import { memoryTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../fakes/openai.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type HttpClient, type TestServer } from '../helpers/server.js';

// Memory on the offline coach: the REST contract, the limit under parallel writes,
// explicit remembering, the offline rules' extraction, the off switch, temporary chats, isolation,
// memories in and out of the context, commitments asked about once, search ranking and isolation.
let server: TestServer;
let users = 0;
beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

const newUser = async (s: TestServer = server) => signUp(s.url, `mem-${++users}-${Date.now()}`, 'Jane Doe');
const trpcMutate = (client: HttpClient, path: string, input: unknown) => client.post(`/trpc/${path}`, input);

async function say(s: TestServer, http: HttpClient, chatId: number, content: string) {
  const sent = await http.post(`/api/chats/${chatId}/messages`, { content });
  expect(sent.status).toBe(201);
  await s.deps.replies.settled();
  const messages = (await http.get(`/api/chats/${chatId}/messages`)).json as Array<{ id: number; role: string; content: string }>;
  return { messages, reply: messages.find((m) => m.role === 'assistant' && m.id > sent.json.id)! };
}
const newChat = async (http: HttpClient) => (await http.post('/api/chats', {})).json as { id: number; isTemporary: boolean };
const memoriesOf = async (http: HttpClient) =>
  (await http.get('/api/memories')).json.memories as Array<{ id: number; text: string; kind: string; dueAt: string | null; sourceChatId: number | null; sensitive: boolean }>;

describe('the memory rules', () => {
  it('reads explicit requests to remember, as written', () => {
    expect(explicitRemember('Remember that my daughter starts school on Monday')).toBe('My daughter starts school on Monday');
    expect(explicitRemember('Please remember I prefer short answers.')).toBe('I prefer short answers.');
    expect(explicitRemember("Don't forget that Ana leads the design team")).toBe('Ana leads the design team');
    expect(explicitRemember('I always remember names')).toBeNull();
    expect(explicitRemember('Remember that')).toBeNull();
  });

  it('extracts people, commitments, preferences and facts the user stated, at most 3', () => {
    const now = new Date('2026-11-23T10:00:00Z'); // a Monday
    const found = extractByRules('My manager is Priya Shah. I will send the roadmap by Friday. I prefer written feedback. I work at Acme as a PM.', now);
    expect(found).toHaveLength(3);
    expect(found[0]).toEqual({ text: 'I will send the roadmap by Friday', kind: 'commitment', dueAt: new Date('2026-11-27T17:00:00Z') });
    expect(found[1]).toEqual({ text: 'My manager is Priya Shah', kind: 'person', dueAt: null });
    expect(found[2]).toMatchObject({ text: 'I prefer written feedback', kind: 'preference' });
    expect(extractByRules('What is a good agenda for a 1:1?')).toEqual([]);
  });

  it('sees near-duplicates and answers that close a commitment', () => {
    expect(nearDuplicate('My manager is Priya', 'my manager is Priya Shah')).toBe(true);
    expect(nearDuplicate('My manager is Priya', 'I prefer written feedback')).toBe(false);
    expect(saysDone('Done, I sent it on Thursday')).toBe(true);
    expect(saysDone('Not yet, it slipped')).toBe(false);
  });
});

describe('what the coach may keep of a person (the policy)', () => {
  // Said in passing, each of these touches a topic kept only when the user asks in so many words.
  const sensitive: Array<[string, string]> = [
    ["I'm a wreck since my divorce and I've been on antidepressants", 'health'],
    ['I am a single parent and my son has been ill all week', 'family'],
    ['I feel like a failure since the reorg', 'emotions'],
    ['I am a Muslim and I pray at lunchtime', 'beliefs'],
    ['I earn 85k a year and I think that is unfair', 'pay'],
    ['My manager makes sexist comments in our 1:1s', 'discrimination'],
    ['I am talking to a lawyer about my contract', 'legal'],
    ['I am gay and not out at work', 'identity'],
    ['My colleague Dana lives in Leeds, her phone is +44 7700 900123', 'personal_details'],
  ];
  it.each(sensitive)('keeps nothing of "%s" unasked (%s)', (message, topic) => {
    expect(sensitiveTopicsOf(message)).toContain(topic);
    expect(extractByRules(`${message}. I work at Acme as a PM.`, new Date('2026-11-23T10:00:00Z')).map((m) => m.text)).toEqual(['I work at Acme as a PM']);
  });

  it.each([
    'My manager is Priya Shah',
    'I will send the roadmap by Friday',
    'I lead a team of 8 engineers',
    'We have tech debt to pay down this quarter',
    'The release date is 2026-11-27',
    'The design lives in the monorepo',
    'I prefer written feedback before a meeting',
  ])('finds nothing sensitive in "%s"', (text) => {
    expect(sensitiveTopicsOf(text)).toEqual([]);
  });

  it('keeps what the user asks for, marked sensitive when it is', () => {
    expect(judgeMemory({ text: "My daughter's recital is on Friday", kind: 'fact' }, { explicit: true })).toEqual({ keep: true, sensitive: true });
    expect(judgeMemory({ text: 'I prefer short agendas', kind: 'preference' }, { explicit: true })).toEqual({ keep: true, sensitive: false });
    // A model's paraphrase is traced to the sentence it came from: sensitive there, dropped here.
    expect(judgeMemory({ text: 'Going through a hard time at home', kind: 'fact' }, { explicit: false, message: "I'm a wreck since my divorce." })).toEqual({ keep: false, why: 'sensitive' });
    expect(judgeMemory({ text: 'Leads the platform team', kind: 'fact' }, { explicit: false, message: 'I lead the platform team. I have been on antidepressants.' })).toEqual({ keep: true, sensitive: false });
    expect(judgeMemory({ text: 'Leads the platform team', kind: 'fact' }, { explicit: false, message: 'I lead the platform team.', flaggedSensitive: true })).toEqual({ keep: false, why: 'sensitive' });
  });

  it('takes no plan under an "if" for a commitment', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(isConditional("I'll quit by Friday if nothing changes")).toBe(true);
    expect(extractByRules("I'll quit by Friday if nothing changes", now)).toEqual([]);
    expect(extractByRules('I might send the deck by Friday', now)).toEqual([]);
    expect(extractByRules('Unless Sam objects, I will ship the beta by Friday', now)).toEqual([]);
    expect(judgeMemory({ text: 'Will quit by Friday', kind: 'commitment' }, { explicit: false, message: "I'll quit by Friday if nothing changes." })).toEqual({ keep: false, why: 'conditional' });
    // Asked to remember, it is kept as a note, never as a commitment the coach would ask about.
    expect(kindOf("I'll quit by Friday if nothing changes").kind).toBe('fact');
    // 'check if' asks a question and sets no condition.
    expect(extractByRules("I'll check if the API is ready by Friday", now)).toEqual([expect.objectContaining({ kind: 'commitment' })]);
  });
});

describe('the memories REST paths', () => {
  it('creates, lists newest first, edits, deletes and forgets everything', async () => {
    const { http } = await newUser();
    const first = await http.post('/api/memories', { text: 'I lead the platform team' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ id: expect.any(Number), text: 'I lead the platform team', kind: 'fact', dueAt: null, sourceChatId: null, sensitive: false });
    const second = await http.post('/api/memories', { text: 'Ship the plan', kind: 'commitment', dueAt: '2099-01-01T09:00:00Z' });
    expect(second.json.dueAt).toBe('2099-01-01T09:00:00.000Z');
    expect((await memoriesOf(http)).map((m) => m.id)).toEqual([second.json.id, first.json.id]);

    const edited = await http.request('PATCH', `/api/memories/${first.json.id}`, { text: 'I lead the data team', kind: 'fact' });
    expect(edited.status).toBe(200);
    expect(edited.json.text).toBe('I lead the data team');
    expect((await http.delete(`/api/memories/${first.json.id}`)).status).toBe(204);
    expect((await http.delete(`/api/memories/${first.json.id}`)).status).toBe(404);
    expect((await http.delete('/api/memories')).status).toBe(204);
    expect(await memoriesOf(http)).toEqual([]);
  });

  it('answers bad input with 400 naming the field', async () => {
    const { http } = await newUser();
    const cases = [
      [{ text: '' }, 'text', memoryTexts.textRequired],
      [{ text: 'x'.repeat(501) }, 'text', memoryTexts.textTooLong],
      [{ text: 'ok', kind: 'secret' }, 'kind', memoryTexts.unknownKind],
      [{ text: 'ok', dueAt: 'friday' }, 'dueAt', memoryTexts.dueAtInvalid],
    ] as const;
    for (const [body, field, message] of cases) {
      const res = await http.post('/api/memories', body);
      expect(res.status).toBe(400);
      expect(res.json.fieldErrors[field]).toContain(message);
    }
    expect((await http.put('/api/memories/settings', { enabled: 'yes' })).json.fieldErrors.enabled).toBeDefined();
    expect((await http.request('PATCH', '/api/memories/abc', { text: 'x' })).status).toBe(400);
  });

  it('keeps each user to their own memories: foreign ids answer 404', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const mine = (await alice.http.post('/api/memories', { text: 'Alice private note' })).json;
    expect((await bob.http.request('PATCH', `/api/memories/${mine.id}`, { text: 'hacked' })).status).toBe(404);
    expect((await bob.http.delete(`/api/memories/${mine.id}`)).status).toBe(404);
    expect((await bob.http.delete('/api/memories')).status).toBe(204);
    expect(await memoriesOf(bob.http)).toEqual([]);
    expect((await memoriesOf(alice.http)).map((m) => m.text)).toEqual(['Alice private note']);
    expect((await trpcMutate(bob.http, 'memories.undo', { messageId: 1 })).status).toBe(404);
  });

  it('has memory on by default and turns it off and on', async () => {
    const { http } = await newUser();
    expect((await http.get('/api/memories/settings')).json).toEqual({ enabled: true });
    expect((await http.put('/api/memories/settings', { enabled: false })).json).toEqual({ enabled: false });
    expect((await http.get('/api/memories/settings')).json).toEqual({ enabled: false });
    expect((await http.put('/api/memories/settings', { enabled: true })).json).toEqual({ enabled: true });
  });

  it('keeps at most 500 a user, counted right under parallel creates', async () => {
    const { http, user } = await newUser();
    const em = server.deps.orm.em.fork();
    for (let i = 0; i < 495; i++) em.create(Memory, { owner: user.id, text: `Seeded memory ${i}`, kind: 'fact' });
    await em.flush();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => http.post('/api/memories', { text: `Parallel ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.message === memoryTexts.tooMany(500))).toBe(true);
    expect(await server.deps.orm.em.fork().count(Memory, { owner: user.id })).toBe(500);
  });
});

// Issue 49: the Memory page's delete answers a token; its toast's Undo puts the memory back as it was.
describe('delete and undo', () => {
  const rowOf = async (id: number) => {
    const row = await server.deps.orm.em.fork().findOne(Memory, id);
    if (!row) return null;
    const { owner: _owner, sourceChat, askedChat, ...rest } = row as unknown as Record<string, unknown> & { owner: unknown; sourceChat: { id: number } | null; askedChat: { id: number } | null };
    return { ...rest, sourceChat: sourceChat?.id ?? null, askedChat: askedChat?.id ?? null };
  };

  it('restores the deleted memory exactly: id, text, kind, dates, source, sensitive mark; once, for its owner only', async () => {
    const { http } = await newUser();
    const chat = await newChat(http);
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'Remember that I see my therapist on Thursdays' });
    await server.deps.replies.settled();
    const commitment = await http.post('/api/memories', { text: 'Send the board deck to Priya', kind: 'commitment', dueAt: '2099-03-01T09:00:00.000Z' });
    expect(commitment.status).toBe(201);
    expect((await http.request('PATCH', `/api/memories/${commitment.json.id}`, { done: true })).status).toBe(200);
    const before = await memoriesOf(http);
    expect(before).toHaveLength(2);

    for (const memory of before) {
      const row = await rowOf(memory.id);
      const deleted = await trpcMutate(http, 'memories.delete', { memoryId: memory.id });
      expect(deleted.status).toBe(200);
      const { restoreToken } = deleted.json.result.data as { restoreToken: string };
      expect(await rowOf(memory.id)).toBeNull();

      // Not another user's, not a changed token.
      const { http: other } = await newUser();
      expect((await trpcMutate(other, 'memories.restore', { restoreToken })).status).toBe(404);
      const [body, signature] = restoreToken.split('.');
      const forged = `${Buffer.from(Buffer.from(body!, 'base64url').toString().replace(memory.text, 'Something else')).toString('base64url')}.${signature}`;
      expect((await trpcMutate(http, 'memories.restore', { restoreToken: forged })).status).toBe(404);

      const restored = await trpcMutate(http, 'memories.restore', { restoreToken });
      expect(restored.status).toBe(200);
      expect(restored.json.result.data).toEqual(before.find((m) => m.id === memory.id));
      expect(await rowOf(memory.id)).toEqual(row);
      expect((await trpcMutate(http, 'memories.restore', { restoreToken })).status).toBe(409);
    }
    expect(await memoriesOf(http)).toEqual(before);
    expect(before.find((m) => m.sourceChatId === chat.id)?.sensitive).toBe(true);
    // The REST path keeps its contract: 204, no body.
    const rest = await http.delete(`/api/memories/${before[0]!.id}`);
    expect(rest.status).toBe(204);
  });
});

describe('remembering in the chat (offline coach)', () => {
  it('stores "Remember that …" as written, before the reply, which says so', async () => {
    const { http } = await newUser();
    const chat = await newChat(http);
    const sent = await http.post(`/api/chats/${chat.id}/messages`, { content: 'Remember that I am presenting to the board in March' });
    // Stored with the message, not after the reply.
    const now = await memoriesOf(http);
    expect(now).toEqual([expect.objectContaining({ text: 'I am presenting to the board in March', kind: 'fact', sourceChatId: chat.id })]);
    await server.deps.replies.settled();
    const messages = (await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ id: number; role: string; content: string }>;
    const reply = messages.find((m) => m.role === 'assistant' && m.id > sent.json.id)!;
    expect(reply.content).toContain('I’ll remember that: “I am presenting to the board in March”');
    const notes = (await http.get(`/trpc/memories.chatNotes?input=${encodeURIComponent(JSON.stringify({ chatId: chat.id }))}`)).json.result.data;
    expect(notes.notes).toEqual([{ messageId: reply.id, memoryIds: [now[0]!.id] }]);
    // Undo of the note forgets it.
    expect((await trpcMutate(http, 'memories.undo', { messageId: reply.id })).status).toBe(200);
    expect(await memoriesOf(http)).toEqual([]);
  });

  it('extracts facts after a reply by the offline rules, merging near-duplicates, at most 3', async () => {
    const { http } = await newUser();
    const chat = await newChat(http);
    await say(server, http, chat.id, 'My manager is Priya and I will finish the hiring plan by Friday.');
    const kept = await memoriesOf(http);
    expect(kept.map((m) => [m.kind, m.text]).sort()).toEqual([
      ['commitment', 'My manager is Priya and I will finish the hiring plan by Friday'],
      ['person', 'My manager is Priya'],
    ].sort());
    expect(kept.find((m) => m.kind === 'commitment')!.dueAt).not.toBeNull();
    await say(server, http, chat.id, 'By the way, my manager is Priya Shah.');
    const after = await memoriesOf(http);
    expect(after).toHaveLength(2);
    expect(after.map((m) => m.text)).toContain('My manager is Priya Shah');
  });

  it('keeps nothing sensitive said in passing, and no "if" as a commitment: the next chat asks about nothing', async () => {
    const { http } = await newUser();
    const chat = await newChat(http);
    await say(server, http, chat.id, "I'm a wreck since my divorce and I've been on antidepressants");
    await say(server, http, chat.id, 'My manager is Priya and she is pregnant with twins.');
    await say(server, http, chat.id, "I'll quit by Friday if nothing changes.");
    expect(await memoriesOf(http)).toEqual([]);
    // Nothing to ask about in the next chat, however late it is opened.
    const em = server.deps.orm.em.fork();
    expect(await em.count(Memory, { kind: 'commitment', sourceChat: chat.id })).toBe(0);
    const next = await newChat(http);
    expect((await http.get(`/api/chats/${next.id}/messages`)).json).toEqual([]);
  });

  it('keeps an explicit "remember" of a sensitive fact, marked sensitive (also from the Memory page)', async () => {
    const { http } = await newUser();
    const chat = await newChat(http);
    const { reply } = await say(server, http, chat.id, "Remember that my daughter's recital is on Friday");
    expect(reply.content).toContain('I’ll remember that');
    await say(server, http, chat.id, 'Remember that I prefer short agendas');
    const kept = await memoriesOf(http);
    expect(kept.map((m) => [m.text, m.sensitive]).sort()).toEqual([["My daughter's recital is on Friday", true], ['I prefer short agendas', false]].sort());
    const written = await http.post('/api/memories', { text: 'I see a therapist on Tuesdays' });
    expect(written.json).toMatchObject({ sensitive: true });
    // An edit decides again.
    const edited = await http.request('PATCH', `/api/memories/${written.json.id}`, { text: 'I am out on Tuesdays' });
    expect(edited.json).toMatchObject({ sensitive: false });
  });

  it('marks memories kept before the mark at start; until then they stay in the app', async () => {
    const { http, user } = await newUser();
    const connection = server.deps.orm.em.fork().getConnection();
    await connection.execute(
      `insert into "memory" ("owner_id", "text", "kind", "sensitive", "created_at", "updated_at") values (?, 'I have been on antidepressants since May', 'fact', null, now(), now()), (?, 'I lead the data team', 'fact', null, now(), now())`,
      [user.id, user.id],
    );
    expect((await memoriesOf(http)).map((m) => m.sensitive)).toEqual([true, true]);
    expect(mayLeaveTheApp({ sensitive: null })).toBe(false);
    expect(await decideUndecidedMemories(server.deps.orm.em.fork())).toBeGreaterThanOrEqual(2);
    expect(Object.fromEntries((await memoriesOf(http)).map((m) => [m.text, m.sensitive]))).toEqual({ 'I have been on antidepressants since May': true, 'I lead the data team': false });
    expect(await decideUndecidedMemories(server.deps.orm.em.fork())).toBe(0);
  });

  it('remembers nothing while memory is off, and uses none', async () => {
    const { http } = await newUser();
    await http.post('/api/memories', { text: 'I work at Globex' });
    await http.put('/api/memories/settings', { enabled: false });
    const chat = await newChat(http);
    const { reply } = await say(server, http, chat.id, 'Remember that my manager is Priya');
    expect(reply.content).toContain('I could not remember that');
    await say(server, http, chat.id, 'My manager is Priya. I prefer mornings.');
    expect((await memoriesOf(http)).map((m) => m.text)).toEqual(['I work at Globex']);
  });

  it('remembers nothing from a temporary chat (chat history off)', async () => {
    const { http } = await newUser();
    expect((await trpcMutate(http, 'profile.updatePrivacy', { dataRetention: '90', shareAnonymousData: false, storeChatHistory: false })).status).toBe(200);
    const chat = await newChat(http);
    expect(chat.isTemporary).toBe(true);
    await say(server, http, chat.id, 'Remember that my manager is Priya');
    await say(server, http, chat.id, 'I will send the report by Friday.');
    expect(await memoriesOf(http)).toEqual([]);
  });

  it('asks once about a commitment past its due date in the next chat, and an answer closes it', async () => {
    const { http, user } = await newUser();
    const created = await http.post('/api/memories', { text: 'I will send the roadmap to Priya by Friday', kind: 'commitment', dueAt: '2020-01-03T17:00:00Z' });
    const chat = await newChat(http);
    const opening = (await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ role: string; content: string }>;
    expect(opening.map((m) => m.content)).toEqual([expect.stringMatching(/you planned to send the roadmap to Priya — how did it go\?$/)]);
    // Once only.
    const next = await newChat(http);
    expect((await http.get(`/api/chats/${next.id}/messages`)).json).toEqual([]);
    await say(server, http, chat.id, 'Done, I sent it on Thursday.');
    const row = await server.deps.orm.em.fork().findOneOrFail(Memory, { id: created.json.id, owner: user.id });
    expect(row.doneAt).not.toBeNull();
  });
});

describe('memories in the context', () => {
  it('puts all memories when few, the 20 most relevant when many, and never a deleted one', async () => {
    const { http, user } = await newUser();
    const em = server.deps.orm.em.fork();
    for (let i = 0; i < 30; i++) em.create(Memory, { owner: user.id, text: `Routine fact number ${i} about weekly planning`, kind: 'fact' });
    const target = em.create(Memory, { owner: user.id, text: 'My daughter plays violin on Thursdays', kind: 'person', updatedAt: new Date('2020-01-01') });
    await em.flush();
    const context = async (latest: string) => {
      const memories = await loadCoachMemories(server.deps.orm.em.fork(), user.id);
      const assembled = await assembleCoachContext({ user: { fullName: 'Jane', jobTitle: null, company: null }, history: [], latestUserMessage: latest, facts: { ...noFacts, memories } });
      return renderCoachContext(assembled).map((t) => t.content).join('\n');
    };
    const text = await context('Any tips for the violin recital?');
    expect(text).toContain('What you know about the user');
    expect(text).toContain('My daughter plays violin on Thursdays');
    expect(text.match(/^- /gm)?.length).toBe(20);
    // Irrelevant and old: not among the 20.
    expect(await context('How do I run a retro?')).not.toContain('violin');
    await http.delete(`/api/memories/${target.id}`);
    expect(await context('Any tips for the violin recital?')).not.toContain('violin');
    await http.put('/api/memories/settings', { enabled: false });
    expect(await context('weekly planning')).not.toContain('What you know about the user');
  });
});

describe('search across chats', () => {
  it('finds the user’s own messages and replies, ranked, marked, and never another user’s', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const a1 = await newChat(alice.http);
    await say(server, alice.http, a1.id, 'The quarterly budget review went badly; budget cuts again. <b>sigh</b>');
    const a2 = await newChat(alice.http);
    await say(server, alice.http, a2.id, 'I need to talk about the budget with finance');
    const b1 = await newChat(bob.http);
    await say(server, bob.http, b1.id, 'Bob budget secret');

    const res = await alice.http.get('/api/search?q=budget');
    expect(res.status).toBe(200);
    const results = res.json.results as Array<{ chatId: number; chatTitle: string; messageId: number; snippet: string; createdAt: string }>;
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results.every((r) => r.chatId === a1.id || r.chatId === a2.id)).toBe(true);
    // Two matches rank above one.
    expect(results[0]!.chatId).toBe(a1.id);
    expect(results[0]!.snippet).toContain('<mark>budget</mark>');
    // The user's own message, whose markup is escaped (the coach's reply that takes up their words matches too).
    const own = results.find((r) => r.snippet.includes('sigh'));
    expect(own?.snippet).toContain('&lt;b&gt;sigh');
    expect(results.every((r) => !r.snippet.includes('<b>'))).toBe(true);
    expect(results[0]).toMatchObject({ chatTitle: expect.any(String), messageId: expect.any(Number), createdAt: expect.any(String) });
    expect((await bob.http.get('/api/search?q=quarterly')).json.results).toEqual([]);

    expect((await alice.http.get('/api/search?q=b')).status).toBe(400);
    expect((await alice.http.get(`/api/search?q=${'x'.repeat(201)}`)).status).toBe(400);
    expect((await alice.http.get('/api/search')).status).toBe(400);
    expect((await alice.http.get('/api/search?q=%22%20or%20(')).status).toBe(200);
  });
});

describe('search vectors', () => {
  it('keeps each message’s lexemes by trigger (none while a reply is written), ranks old messages without them, and fills them in', async () => {
    const alice = await newUser();
    const chat = await newChat(alice.http);
    const { messages } = await say(server, alice.http, chat.id, 'The roadmap review with the roadmap owners');
    const connection = server.deps.orm.em.fork().getConnection();
    const vectors = async () =>
      (await connection.execute(
        'select "id", "status", "search_vector"::text from "message" where "chat_id" = ? order by "id"',
        [chat.id],
      )) as Array<{ id: number; status: string; search_vector: string | null }>;
    expect((await vectors()).every((m) => m.search_vector !== null)).toBe(true);
    expect((await vectors())[0]!.search_vector).toContain("'roadmap':2,6");

    // A reply being written has none; it gets one when it ends, from whatever path ends it.
    const [streaming] = await connection.execute<Array<{ id: number }>>(
      `insert into "message" ("chat_id", "role", "content", "status", "created_at", "updated_at") values (?, 'assistant', 'half a roadmap', 'streaming', now(), now()) returning "id"`,
      [chat.id],
    );
    expect((await vectors()).find((m) => m.id === streaming!.id)!.search_vector).toBeNull();
    await connection.execute(`update "message" set "content" = 'half a roadmap, and the rest', "status" = 'complete' where "id" = ?`, [streaming!.id]);
    expect((await vectors()).find((m) => m.id === streaming!.id)!.search_vector).toContain("'rest'");

    // Messages from before the column: search ranks them by their text, the same order, until the
    // backfill has filled them in.
    const before = (await alice.http.get('/api/search?q=roadmap')).json.results as Array<{ messageId: number }>;
    expect(before.map((r) => r.messageId)).toContain(messages[0]!.id);
    expect(before.length).toBeGreaterThanOrEqual(2);
    await connection.execute('update "message" set "search_vector" = null where "chat_id" = ?', [chat.id]);
    const during = (await alice.http.get('/api/search?q=roadmap')).json.results as Array<{ messageId: number }>;
    expect(during.map((r) => r.messageId)).toEqual(before.map((r) => r.messageId));
    const backfill = () => backfillSearchVectors(async (sql) => (await connection.execute(sql)) as Array<{ last: number | null; updated: number }>);
    const filled = await backfill();
    expect(filled).toBeGreaterThanOrEqual(3);
    expect((await vectors()).every((m) => m.search_vector !== null)).toBe(true);
    expect(await backfill()).toBe(0);
    expect(((await alice.http.get('/api/search?q=roadmap')).json.results as Array<{ messageId: number }>).map((r) => r.messageId)).toEqual(before.map((r) => r.messageId));
  });
});

describe('privacy', () => {
  it('exports memories, and retention removes old ones as it does chats', async () => {
    const { http, user } = await newUser();
    await http.post('/api/memories', { text: 'Exported memory' });
    const exported = await trpcMutate(http, 'privacy.exportMyData', { format: 'json' });
    const body = JSON.parse(exported.json.result.data.content);
    expect(body.memories).toEqual([expect.objectContaining({ text: 'Exported memory', kind: 'fact' })]);
    expect(body.memorySettings).toBeNull();
    const em = server.deps.orm.em.fork();
    await em.nativeUpdate(Memory, { owner: user.id }, { updatedAt: new Date(Date.now() - 100 * 86_400_000) });
    const result = await enforceDataRetention(server.deps.orm);
    expect(result.memories).toBeGreaterThanOrEqual(1);
    expect(await memoriesOf(http)).toEqual([]);
  });
});

describe('extraction through the model', () => {
  let fake: FakeOpenAI;
  let modelServer: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    modelServer = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-memory', OPENAI_BASE_URL: fake.url });
  });
  afterAll(async () => {
    await modelServer?.stop();
    await fake?.close();
  });

  it('asks the model with a JSON schema, stores what it finds (at most 3), and puts them in the next context', async () => {
    const extraction = (body: FakeChatRequest) => (body.response_format ? 'json' : 'chat');
    fake.behave({
      reply: (body) =>
        extraction(body) === 'json'
          ? JSON.stringify({
              memories: [
                { text: 'Leads a team of 8 engineers', kind: 'fact', dueAt: null },
                { text: 'Prefers direct feedback', kind: 'preference', dueAt: null },
                { text: 'Will hire two engineers', kind: 'commitment', dueAt: '2099-02-01T17:00:00Z' },
                { text: 'Manager is Priya', kind: 'person', dueAt: null },
              ],
            })
          : 'Noted, thanks.',
    });
    const { http } = await newUser(modelServer);
    const chat = await newChat(http);
    await say(modelServer, http, chat.id, 'I lead a team of 8 engineers and like direct feedback. Hiring two more by February.');
    const jsonRequest = fake.requests.find((r) => r.body.response_format)!;
    expect(jsonRequest.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'memories', strict: true } });
    // Only what the user said goes to the extraction.
    expect(jsonRequest.body.messages!.at(-1)).toEqual({ role: 'user', content: 'I lead a team of 8 engineers and like direct feedback. Hiring two more by February.' });
    const kept = await memoriesOf(http);
    expect(kept.map((m) => m.text).sort()).toEqual(['Leads a team of 8 engineers', 'Prefers direct feedback', 'Will hire two engineers']);

    fake.reset();
    fake.behave({ reply: (body) => (body.response_format ? '{"memories":[]}' : 'Sure.') });
    await say(modelServer, http, chat.id, 'What should I ask in interviews?');
    const chatRequest = fake.requests.find((r) => !r.body.response_format)!;
    const system = chatRequest.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain('What you know about the user');
    expect(system).toContain('Prefers direct feedback');
  });

  it('acknowledges an explicit remember through the model without an extraction call', async () => {
    fake.reset();
    fake.behave({ reply: (body) => (body.response_format ? '{"memories":[]}' : 'I will remember that.') });
    const { http } = await newUser(modelServer);
    const chat = await newChat(http);
    await say(modelServer, http, chat.id, "Don't forget that I am off on Fridays");
    expect(fake.requests.filter((r) => r.body.response_format)).toHaveLength(0);
    const system = fake.requests[0]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain('Saved to memory just now, at the user’s request: “I am off on Fridays”');
    expect((await memoriesOf(http)).map((m) => m.text)).toEqual(['I am off on Fridays']);
  });
});
