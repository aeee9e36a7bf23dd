import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTexts, chatTexts } from '../../src/shared/texts/index.js';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The spec's chat REST paths on the real app, answered by the offline coach.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

type Msg = { id: number; role: string; content: string; status: string };

async function replyOf(http: HttpClient, chatId: number): Promise<Msg> {
  return eventually(async () => {
    const res = await http.get(`/api/chats/${chatId}/messages`);
    const last = (res.json as Msg[]).at(-1);
    return last?.role === 'assistant' && last.status !== 'streaming' ? last : undefined;
  });
}

describe('chat REST paths', () => {
  it('lists the demo user four sample chats', async () => {
    const res = await new HttpClient(server.url).get('/api/chats');
    expect(res.status).toBe(200);
    // The four sample chats (1 to 4), then the example rehearsal's and weekly review's.
    expect(res.json.map((chat: { title: string }) => chat.title).sort()).toEqual([
      'Career growth with GROW',
      'Preparing a difficult conversation',
      'Quarterly OKR planning',
      'Rehearsal: Priya Shah',
      expect.stringMatching(/^Weekly review: \d{4}-\d{2}-\d{2}$/),
      'Weekly team meeting agenda',
    ]);
    expect(res.json.map((chat: { id: number }) => chat.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("writes a JSON answer with res.json's headers, and leaves conditional requests to Express", async () => {
    // http/rest.ts writes answers itself (one string, like a bare server); the headers a client
    // sees are the ones Express's res.json sets, and If-None-Match still gets Express's answer.
    // Uncompressed (the template's six chats pass compression's 1 kB threshold): a length to check.
    const identity = { 'accept-encoding': 'identity' };
    const res = await fetch(`${server.url}/api/chats`, { headers: identity });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.parse(body)).toHaveLength(6);
    const head = await fetch(`${server.url}/api/chats`, { method: 'HEAD', headers: identity });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(Buffer.byteLength(body)), '']);
    // No ETag or Last-Modified: Express answers a conditional request in full, as before.
    const conditional = await fetch(`${server.url}/api/chats`, { headers: { 'if-none-match': '*', 'if-modified-since': new Date().toUTCString() } });
    expect([conditional.status, conditional.headers.get('content-type'), await conditional.text()]).toEqual([200, 'application/json; charset=utf-8', body]);
  });

  it('creates a chat titled New Chat, renames it and pins it to the top', async () => {
    const { http } = await signUp(server.url, 'rest_owner');
    const first = (await http.post('/api/chats')).json;
    const second = (await http.post('/api/chats', { title: 'Second' })).json;
    expect(first).toMatchObject({ title: 'New Chat', isPinned: false });

    const renamed = await http.put(`/api/chats/${first.id}`, { title: '  Weekly 1:1 prep  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.title).toBe('Weekly 1:1 prep');
    // Renaming is not activity: the list keeps its order (most recent first).
    expect((await http.get('/api/chats')).json.map((chat: { id: number }) => chat.id)).toEqual([second.id, first.id]);

    await http.put(`/api/chats/${first.id}`, { isPinned: true });
    const list = (await http.get('/api/chats')).json as Array<{ id: number; isPinned: boolean }>;
    expect(list.map((chat) => chat.id)).toEqual([first.id, second.id]);
    expect(list[0]!.isPinned).toBe(true);
  });

  it('refuses an empty title or an empty update with a clear message and changes nothing', async () => {
    const { http } = await signUp(server.url, 'rest_validation');
    const chat = (await http.post('/api/chats', { title: 'Keep me' })).json;
    expect(await http.put(`/api/chats/${chat.id}`, { title: '   ' })).toMatchObject({ status: 400, json: { message: chatTexts.titleRequired } });
    expect(await http.put(`/api/chats/${chat.id}`, {})).toMatchObject({ status: 400, json: { message: chatTexts.nothingToUpdate } });
    expect(await http.put(`/api/chats/abc`, { title: 'x' })).toMatchObject({ status: 400 });
    expect((await http.get('/api/chats')).json[0].title).toBe('Keep me');
  });

  it('stores the user message, answers with the coach, and names the chat after the first message', async () => {
    const { http } = await signUp(server.url, 'rest_sender');
    const chat = (await http.post('/api/chats')).json;
    const sent = await http.post(`/api/chats/${chat.id}/messages`, { role: 'user', content: 'Help me set a SMART goal for my team this quarter' });
    expect(sent.status).toBe(201);
    expect(sent.json).toMatchObject({ role: 'user', content: 'Help me set a SMART goal for my team this quarter', chatId: chat.id });

    const reply = await replyOf(http, chat.id);
    expect(reply.status).toBe('complete');
    expect(reply.content.length).toBeGreaterThan(10);
    const list = (await http.get('/api/chats')).json;
    expect(list[0].title).toBe('Help me set a SMART goal for m...');
  });

  it('refuses empty, oversized and non-user messages with 400 and stores nothing', async () => {
    const { http } = await signUp(server.url, 'rest_bad_messages');
    const chat = (await http.post('/api/chats')).json;
    expect(await http.post(`/api/chats/${chat.id}/messages`, { content: '   ' })).toMatchObject({ status: 400, json: { message: chatTexts.emptyMessage } });
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'x'.repeat(8001) })).status).toBe(400);
    expect(await http.post(`/api/chats/${chat.id}/messages`, { role: 'assistant', content: 'I am the coach now' })).toMatchObject({ status: 400, json: { message: chatTexts.onlyUserMessages } });
    expect((await http.get(`/api/chats/${chat.id}/messages`)).json).toEqual([]);
  });

  it('pages messages newest first with a before cursor', async () => {
    const { http } = await signUp(server.url, 'rest_pager');
    const chat = (await http.post('/api/chats')).json;
    for (const content of ['one', 'two', 'three']) {
      await http.post(`/api/chats/${chat.id}/messages`, { content });
      await replyOf(http, chat.id);
    }
    const latest = (await http.get(`/api/chats/${chat.id}/messages?limit=2`)).json.messages as Msg[];
    expect(latest.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(latest[0]!.content).toBe('three');
    const older = (await http.get(`/api/chats/${chat.id}/messages?limit=2&before=${latest[0]!.id}`)).json.messages as Msg[];
    expect(older[0]!.content).toBe('two');
  });

  it('answers where a page starts in Next-Cursor, null at the start of the chat, and checks limit', async () => {
    const { http } = await signUp(server.url, 'rest_cursor');
    const chat = (await http.post('/api/chats')).json;
    // 250 stored messages, oldest first: 'm1' .. 'm250'.
    const em = server.deps.orm.em.fork();
    for (let i = 1; i <= 250; i++) em.create(Message, { chat: chat.id, role: i % 2 ? 'user' : 'assistant', content: `m${i}`, status: 'complete' });
    await em.flush();
    const get = (query: string) => http.get(`/api/chats/${chat.id}/messages${query}`);

    // No limit: the newest 100, the body an array as before, and the cursor of the older page.
    const first = await get('');
    expect(first.status).toBe(200);
    const newest = first.json as Msg[];
    expect(newest).toHaveLength(100);
    expect(newest[0]!.content).toBe('m151');
    expect(newest.at(-1)!.content).toBe('m250');
    expect(first.headers.get('next-cursor')).toBe(String(newest[0]!.id));

    // A client that pages gets { messages, nextCursor }: up to 200 at once, and walking back with
    // the cursor ends with null at the start of the chat.
    const big = await get(`?limit=200&before=${first.headers.get('next-cursor')}`);
    expect((big.json.messages as Msg[]).map((m) => m.content)).toEqual(Array.from({ length: 150 }, (_, i) => `m${i + 1}`));
    expect(big.json.nextCursor).toBeNull();
    expect(big.headers.get('next-cursor')).toBe('null');
    const exact = await get('?limit=200');
    expect(exact.json.nextCursor).toBe((exact.json.messages as Msg[])[0]!.id);
    expect(exact.headers.get('next-cursor')).toBe(String(exact.json.nextCursor));
    const all = await get(`?limit=50&before=${exact.json.nextCursor}`);
    expect((all.json.messages as Msg[]).map((m) => m.content)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i + 1}`));
    expect(all.json.nextCursor).toBeNull();

    for (const bad of ['?limit=0', '?limit=201', '?limit=abc', '?limit=-5', '?limit=1.5', '?limit=1&limit=2']) {
      expect(await get(bad), bad).toMatchObject({ status: 400, json: { message: chatTexts.pageLimit } });
    }
    expect(await get('?before=x')).toMatchObject({ status: 400, json: { message: chatTexts.pageCursor } });
    expect(await get('?before=0')).toMatchObject({ status: 400, json: { message: chatTexts.pageCursor } });
    expect((await get('?limit=1')).json.messages).toHaveLength(1);
    expect((await get('?limit=200')).json.messages).toHaveLength(200);
  });

  it('answers the statuses the OpenAPI document gives for the chat POSTs (201)', async () => {
    const { http } = await signUp(server.url, 'rest_status');
    const doc = (await http.get('/api/openapi.json')).json as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const created = await http.post('/api/chats');
    expect(Object.keys(doc.paths['/api/chats']!.post!.responses)).toContain(String(created.status));
    const sent = await http.post(`/api/chats/${created.json.id}/messages`, { role: 'user', content: 'hello' });
    expect(sent.status).toBe(201);
    expect(Object.keys(doc.paths['/api/chats/{id}/messages']!.post!.responses)).toContain('201');
    expect(Object.keys(doc.paths['/api/chats/{id}/messages']!.post!.responses)).not.toContain('200');
    expect(doc.paths['/api/microsoft-email/folders']!.post!.responses).toHaveProperty('201');
    expect(doc.paths['/api/chats/{id}/messages']!.get!.responses['200']).toMatchObject({ headers: { 'Next-Cursor': expect.any(Object) } });
  });

  it('deletes a chat with its messages', async () => {
    const { http } = await signUp(server.url, 'rest_deleter');
    const chat = (await http.post('/api/chats')).json;
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'hello' });
    await replyOf(http, chat.id);
    expect((await http.delete(`/api/chats/${chat.id}`)).status).toBe(204);
    expect((await http.get(`/api/chats/${chat.id}/messages`)).status).toBe(404);
    expect((await http.get('/api/chats')).json).toEqual([]);
  });
});

describe('chat ownership', () => {
  it("never lets one user read, change, delete or write another user's chat", async () => {
    const alice = await signUp(server.url, 'alice_owner');
    const bob = await signUp(server.url, 'bob_intruder');
    const chat = (await alice.http.post('/api/chats', { title: 'Private' })).json;
    await alice.http.post(`/api/chats/${chat.id}/messages`, { content: 'my secret plan' });

    const notFound = { status: 404, json: { message: chatTexts.chatNotFound } };
    expect(await bob.http.get(`/api/chats/${chat.id}/messages`)).toMatchObject(notFound);
    expect(await bob.http.put(`/api/chats/${chat.id}`, { title: 'mine' })).toMatchObject(notFound);
    expect(await bob.http.post(`/api/chats/${chat.id}/messages`, { content: 'hi' })).toMatchObject(notFound);
    expect(await bob.http.delete(`/api/chats/${chat.id}`)).toMatchObject(notFound);
    // An id that does not exist at all answers the same: existence does not leak.
    expect(await bob.http.get(`/api/chats/999999/messages`)).toMatchObject(notFound);
    expect((await bob.http.get('/api/chats')).json).toEqual([]);
    expect((await alice.http.get('/api/chats')).json[0].title).toBe('Private');
  });

  it('lists the chats of the session user, not the demo user, and 401 for an ended session even in demo mode', async () => {
    const { http } = await signUp(server.url, 'list_owner');
    expect((await http.get('/api/chats')).json).toEqual([]);
    const chat = (await http.post('/api/chats', { title: 'Mine' })).json;
    expect((await http.get('/api/chats')).json).toEqual([chat]);

    const oldCookie = http.cookieHeader;
    await http.post('/api/auth/logout');
    const replay = await fetch(`${server.url}/api/chats`, { headers: { cookie: oldCookie } });
    expect(replay.status).toBe(401);
  });

  it('signs demo / demo1234 into a guest space of its own, so no session ever acts as the shared demo account', async () => {
    const demo = new HttpClient(server.url);
    expect((await demo.post('/api/auth/login', authTexts.demoCredentials)).status).toBe(200);
    const chats = (await demo.get('/api/chats')).json as Array<{ id: number; title: string }>;
    // The four samples and the example rehearsal's and review's chats, as the guest's own copies:
    // they answer to the samples' ids (the template's chats 1 to 6), and the rows are the guest's.
    expect(chats.map((chat) => chat.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const guestId = (await demo.get('/api/auth/session')).json.user.id as number;
    const copies = await server.deps.orm.em.fork().find(Chat, { owner: guestId });
    expect(copies.map((chat) => chat.sampleOf).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(copies.every((chat) => chat.id > 6)).toBe(true);
    const config = server.deps.config as { demoMode: boolean };
    config.demoMode = false;
    try {
      // The visitor without a session is nobody once demo mode is off.
      expect(await new HttpClient(server.url).get('/api/chats')).toMatchObject({ status: 401, json: { message: 'Not authenticated' } });
    } finally {
      config.demoMode = true;
    }
  });

  it('answers 401 to chat paths without a session when demo mode is off', async () => {
    const closed = await startTestServer({ DEMO_MODE: 'false' });
    try {
      const res = await new HttpClient(closed.url).get('/api/chats');
      expect(res).toMatchObject({ status: 401, json: { message: 'Not authenticated' } });
    } finally {
      await closed.stop();
    }
  });
});
