import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

type Event = { id: string; data: { type: string; [key: string]: any } };

describe.runIf(Boolean(process.env.DATABASE_URL))('two instances on one PostgreSQL', () => {
  let database: FreshDatabase;
  let fake: FakeOpenAI;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await freshDatabase();
    fake = await startFakeOpenAI();
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url };
    a = await startTestServer(env, database);
    b = await startTestServer(env, database);
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
    await fake.close();
    await database.dispose();
  });

  it("delivers one instance's messages and streamed reply to a subscriber on the other", async () => {
    fake.behave({ tokens: ['Across', ' instances', ' it', ' flows'], tokenDelayMs: 10 });
    const { http } = await signUp(a.url, 'two_instances'); // the session cookie works on both
    const onA = trpcClientFor(a.url, http);
    const onB = trpcClientFor(b.url, http);
    try {
      const chat = await onA.client.chats.create.mutate({});
      const events: Event[] = [];
      await new Promise<void>((resolve) => {
        onB.client.chats.events.subscribe({ chatId: chat.id }, { onStarted: () => resolve(), onData: (e) => void events.push(e as unknown as Event) });
      });
      const { reply } = await onA.client.chats.send.mutate({ chatId: chat.id, content: 'hello from A' });
      await eventually(() => events.some((e) => e.data.type === 'message.completed'));
      expect(events.filter((e) => e.data.type === 'message.created').map((e) => e.data.message.role)).toEqual(['user', 'assistant']);
      const deltas = events.filter((e) => e.data.type === 'message.delta');
      expect(deltas.map((e) => e.data.seq)).toEqual([1, 2, 3, 4]);
      expect(deltas.map((e) => e.data.text).join('')).toBe('Across instances it flows');
      expect(events.at(-1)!.data.message).toMatchObject({ id: reply.id, status: 'complete', content: 'Across instances it flows' });
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('stops from one instance a reply that streams on the other', async () => {
    fake.behave({ tokens: Array.from({ length: 300 }, (_, i) => ` x${i}`), tokenDelayMs: 10 });
    const { http } = await signUp(a.url, 'cross_stop');
    const onA = trpcClientFor(a.url, http);
    const onB = trpcClientFor(b.url, http);
    try {
      const chat = await onA.client.chats.create.mutate({});
      await onA.client.chats.send.mutate({ chatId: chat.id, content: 'long one' });
      await eventually(async () => fake.tokenWrites.length > 5);
      await onB.client.chats.stop.mutate({ chatId: chat.id });
      const reply = await eventually(async () => {
        const { items } = await onB.client.chats.messages.query({ chatId: chat.id });
        const last = items.at(-1)!;
        return last.status !== 'streaming' ? last : undefined;
      });
      expect(reply.status).toBe('stopped');
      expect(reply.content.length).toBeGreaterThan(0);
    } finally {
      onA.close();
      onB.close();
    }
  });
});

describe.runIf(!process.env.DATABASE_URL)('the embedded database', () => {
  it('refuses a second server on the same data directory with a clear message', async () => {
    const first = await startTestServer();
    try {
      await expect(startTestServer({}, first.database)).rejects.toThrow(/already using the data directory/);
    } finally {
      await first.stop();
    }
  }, 60_000);

  it('takes over the lock left by a server that died', async () => {
    const database = await freshDatabase();
    try {
      // A crashed server leaves its lock behind and stops refreshing it.
      const lock = path.join(database.dataDir, 'server.lock');
      fs.mkdirSync(lock, { recursive: true });
      const longAgo = new Date(Date.now() - 60_000);
      fs.utimesSync(lock, longAgo, longAgo);
      const startedAt = Date.now();
      const server = await startTestServer({}, database);
      try {
        expect((await new HttpClient(server.url).get('/readyz')).status).toBe(200);
        // The lock is the new server's now: taken (or refreshed) since the start began.
        expect(fs.statSync(lock).mtimeMs).toBeGreaterThanOrEqual(startedAt - 2_000);
      } finally {
        await server.stop();
      }
      // And gives it back when it stops, so the next start needs no wait.
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      await database.dispose();
    }
  }, 60_000);

  it('keeps data across a restart', async () => {
    const database = await freshDatabase();
    try {
      const first = await startTestServer({}, database);
      const before = await signUp(first.url, 'survivor');
      await before.http.post('/api/chats', { title: 'Still here' });
      await first.stop();
      const second = await startTestServer({}, database);
      try {
        const http = new HttpClient(second.url);
        const res = await http.post('/api/auth/login', { username: 'survivor', password: 'secret123' });
        expect(res.status).toBe(200);
        expect((await http.get('/api/chats')).json.map((c: { title: string }) => c.title)).toEqual(['Still here']);
      } finally {
        await second.stop();
      }
    } finally {
      await database.dispose();
    }
  }, 90_000);
});

describe.runIf(Boolean(process.env.DATABASE_URL))('instances started together on an empty PostgreSQL', () => {
  it('migrate once: one waits for the other, and both serve', async () => {
    const database = await freshDatabase({ empty: true });
    const servers = await Promise.all([startTestServer({}, database), startTestServer({}, database), startTestServer({}, database)]);
    try {
      for (const server of servers) expect((await new HttpClient(server.url).get('/readyz')).status).toBe(200);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await database.dispose();
    }
  });
});
