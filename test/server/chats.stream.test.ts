import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Streaming through the real openai SDK against a local server speaking the Chat Completions API.
let fake: FakeOpenAI;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});
beforeEach(() => fake.reset());

type Event = { type: string; [key: string]: any };
type Tracked = { id: string; data: Event };

// Collects a subscription's events until `until` says stop (or the time runs out).
function collect(
  client: ReturnType<typeof trpcClientFor>['client'],
  input: { chatId: number; lastEventId?: string },
  until: (events: Tracked[]) => boolean,
) {
  const events: Tracked[] = [];
  let resolveDone!: () => void;
  let resolveStarted!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));
  const subscription = client.chats.events.subscribe(input, {
    onStarted: () => resolveStarted(),
    onData: (value) => {
      events.push(value as unknown as Tracked);
      if (until(events)) resolveDone();
    },
    onError: () => resolveDone(),
  });
  return { events, done, started, stop: () => subscription.unsubscribe() };
}

const completedReply = (events: Tracked[]) =>
  events.some((e) => e.data.type === 'message.completed' && e.data.message.role === 'assistant');

function textOf(events: Tracked[], messageId: number): string {
  let text = '';
  let seq = 0;
  for (const { data } of events) {
    if (data.type === 'message.snapshot' && data.message.id === messageId) {
      text = data.message.content;
      seq = data.seq;
    } else if (data.type === 'message.delta' && data.messageId === messageId) {
      expect(data.seq).toBe(seq + 1); // nothing lost, nothing twice, in order
      text += data.text;
      seq = data.seq;
    }
  }
  return text;
}

describe('chat subscription', () => {
  it('streams the model reply token by token and ends with the stored message', async () => {
    fake.behave({ tokens: ['Let', "'s", ' start', ' with', ' your', ' goal', '.'], tokenDelayMs: 5 });
    const { http } = await signUp(server.url, 'stream_watcher');
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const sub = collect(client, { chatId: chat.id }, completedReply);
      await sub.started;
      const { reply } = await client.chats.send.mutate({ chatId: chat.id, content: 'I want to grow' });
      await sub.done;
      sub.stop();

      const types = sub.events.map((e) => e.data.type);
      expect(types.filter((t) => t === 'message.created')).toHaveLength(2);
      expect(types.filter((t) => t === 'message.delta')).toHaveLength(7);
      expect(textOf(sub.events, reply.id)).toBe("Let's start with your goal.");
      const completed = sub.events.find((e) => e.data.type === 'message.completed')!.data.message;
      expect(completed).toMatchObject({ id: reply.id, status: 'complete', content: "Let's start with your goal." });

      // The model got the coach's system context before the conversation.
      const request = fake.replyRequests().at(-1)!.body as { messages: Array<{ role: string; content: string }>; stream: boolean };
      expect(request.stream).toBe(true);
      expect(request.messages[0]!.role).toBe('system');
      expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'I want to grow' });
    } finally {
      close();
    }
  });

  it('resumes after a reconnect from lastEventId without losing or repeating a token', async () => {
    const tokens = Array.from({ length: 40 }, (_, i) => ` t${i}`);
    fake.behave({ tokens, tokenDelayMs: 15 });
    const { http } = await signUp(server.url, 'stream_resumer');
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const first = collect(client, { chatId: chat.id }, (events) => events.filter((e) => e.data.type === 'message.delta').length >= 10);
      await first.started;
      const { reply } = await client.chats.send.mutate({ chatId: chat.id, content: 'stream please' });
      await first.done;
      first.stop(); // the connection drops mid-reply ...
      const lastEventId = first.events.at(-1)!.id;
      await new Promise((resolve) => setTimeout(resolve, 100)); // ... tokens flow meanwhile ...

      const second = collect(client, { chatId: chat.id, lastEventId }, completedReply); // ... and it comes back
      await second.done;
      second.stop();
      const all = [...first.events, ...second.events];
      expect(textOf(all, reply.id)).toBe(tokens.join(''));
      // Chat-level events (the auto-rename) carry the current position; progress ids are unique.
      const ids = all.filter((e) => e.data.type === 'message.delta' || e.data.type === 'message.snapshot').map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      close();
    }
  });

  it('gives a late subscriber a snapshot of the reply under way, then the rest', async () => {
    const tokens = Array.from({ length: 30 }, (_, i) => ` w${i}`);
    fake.behave({ tokens, tokenDelayMs: 15 });
    const { http } = await signUp(server.url, 'stream_late');
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const { reply } = await client.chats.send.mutate({ chatId: chat.id, content: 'go' });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const late = collect(client, { chatId: chat.id }, completedReply);
      await late.done;
      late.stop();
      expect(late.events[0]!.data.type).toBe('message.snapshot');
      expect(textOf(late.events, reply.id)).toBe(tokens.join(''));
    } finally {
      close();
    }
  });

  it("refuses to stream another user's chat", async () => {
    const alice = await signUp(server.url, 'stream_alice');
    const bob = await signUp(server.url, 'stream_bob');
    const aliceClient = trpcClientFor(server.url, alice.http);
    const bobClient = trpcClientFor(server.url, bob.http);
    try {
      const chat = await aliceClient.client.chats.create.mutate({});
      const error = await new Promise<any>((resolve) => {
        bobClient.client.chats.events.subscribe({ chatId: chat.id }, { onError: resolve, onData: () => resolve(null) });
      });
      expect(error?.data?.code).toBe('NOT_FOUND');
    } finally {
      aliceClient.close();
      bobClient.close();
    }
  });
});

describe('stopping and failures', () => {
  it('stops a reply mid-stream and keeps the partial text', async () => {
    fake.behave({ tokens: Array.from({ length: 200 }, (_, i) => ` p${i}`), tokenDelayMs: 10 });
    const { http } = await signUp(server.url, 'stopper');
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const sub = collect(client, { chatId: chat.id }, completedReply);
      await sub.started;
      const { reply } = await client.chats.send.mutate({ chatId: chat.id, content: 'talk a lot' });
      await eventually(() => sub.events.filter((e) => e.data.type === 'message.delta').length >= 5);

      // A second message while the reply runs is refused.
      await expect(client.chats.send.mutate({ chatId: chat.id, content: 'again' })).rejects.toMatchObject({ message: chatTexts.replyRunning });
      await client.chats.stop.mutate({ chatId: chat.id });
      await sub.done;
      sub.stop();

      const { items } = await client.chats.messages.query({ chatId: chat.id });
      const stored = items.find((m) => m.id === reply.id)!;
      expect(stored.status).toBe('stopped');
      expect(stored.content.length).toBeGreaterThan(0);
      expect(stored.content).toBe(textOf(sub.events, reply.id));
      expect(stored.content.length).toBeLessThan(200 * 4);
      // And the chat takes messages again.
      fake.behave({ tokens: ['ok'] });
      await expect(client.chats.send.mutate({ chatId: chat.id, content: 'next' })).resolves.toBeTruthy();
    } finally {
      close();
    }
  });

  it.each([500, 429] as const)('keeps the user message when the model answers %i and reports the failure', async (status) => {
    fake.behave({ status, retryAfterSeconds: 0 });
    const { http } = await signUp(server.url, `failing_${status}`);
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const sub = collect(client, { chatId: chat.id }, completedReply);
      await sub.started;
      await client.chats.send.mutate({ chatId: chat.id, content: 'Please keep this message' });
      await sub.done;
      sub.stop();
      const completed = sub.events.find((e) => e.data.type === 'message.completed')!.data;
      expect(completed.error).toBe(chatTexts.replyFailed);
      expect(completed.message.status).toBe('failed');
      const { items } = await client.chats.messages.query({ chatId: chat.id });
      expect(items.map((m) => [m.role, m.content])).toEqual([['user', 'Please keep this message']]);
    } finally {
      close();
    }
  });

  it('keeps what arrived when the model fails mid-stream, marked failed', async () => {
    fake.behave({ tokens: ['Part', 'ial', ' answer', ' never', ' ends'], tokenDelayMs: 5, failAfterTokens: 3 });
    const { http } = await signUp(server.url, 'midstream');
    const { client, close } = trpcClientFor(server.url, http);
    try {
      const chat = await client.chats.create.mutate({});
      const sub = collect(client, { chatId: chat.id }, completedReply);
      await sub.started;
      await client.chats.send.mutate({ chatId: chat.id, content: 'hello' });
      await sub.done;
      sub.stop();
      const { items } = await client.chats.messages.query({ chatId: chat.id });
      expect(items.map((m) => [m.role, m.status, m.content])).toEqual([
        ['user', 'complete', 'hello'],
        ['assistant', 'failed', 'Partial answer'],
      ]);
    } finally {
      close();
    }
  });
});

describe('the /ws protocol', () => {
  function openSocket(cookie: string) {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie, origin: server.url } });
    const frames: any[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    return { ws, frames, opened: new Promise((resolve) => ws.once('open', resolve)) };
  }

  it("answers chat_message with the user's message and then the coach's", async () => {
    fake.behave({ tokens: ['Hi', ' there'] });
    const { http } = await signUp(server.url, 'ws_user');
    const chat = (await http.post('/api/chats')).json;
    const socket = openSocket(http.cookieHeader);
    await socket.opened;
    socket.ws.send(JSON.stringify({ type: 'chat_message', chatId: chat.id, content: 'Hello coach' }));
    await eventually(() => socket.frames.filter((f) => f.type === 'new_message').length === 2);
    const [mine, coach] = socket.frames.filter((f) => f.type === 'new_message');
    expect(mine).toMatchObject({ chatId: chat.id, message: { role: 'user', content: 'Hello coach' } });
    expect(coach).toMatchObject({ chatId: chat.id, message: { role: 'assistant', content: 'Hi there', status: 'complete' } });

    socket.ws.send(JSON.stringify({ type: 'get_messages', chatId: chat.id }));
    const received = await eventually(() => socket.frames.find((f) => f.type === 'messages_received'));
    expect(received.messages.map((m: any) => m.content)).toEqual(['Hello coach', 'Hi there']);
    socket.ws.close();
  });

  it('answers malformed frames and foreign chats with an error and stays open', async () => {
    const alice = await signUp(server.url, 'ws_alice');
    const bob = await signUp(server.url, 'ws_bob');
    const aliceChat = (await alice.http.post('/api/chats')).json;
    const socket = openSocket(bob.http.cookieHeader);
    await socket.opened;
    socket.ws.send('not json');
    socket.ws.send(JSON.stringify({ type: 'shout' }));
    socket.ws.send(JSON.stringify({ type: 'chat_message', chatId: aliceChat.id, content: 'let me in' }));
    socket.ws.send(JSON.stringify({ type: 'chat_message', chatId: aliceChat.id, content: '' }));
    await eventually(() => socket.frames.length >= 4);
    expect(socket.frames.every((f) => f.type === 'error' && typeof f.message === 'string')).toBe(true);
    expect(socket.frames.map((f) => f.message)).toContain(chatTexts.chatNotFound);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    expect((await alice.http.get(`/api/chats/${aliceChat.id}/messages`)).json).toEqual([]);
    socket.ws.close();
  });

  it('refuses a WebSocket opened from a foreign origin', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { origin: 'http://evil.example' } });
    const status = await new Promise((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode)));
    expect(status).toBe(403);
  });
});
