import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { HttpClient, startTestServer } from '../helpers/server.js';
import { expectRetryAfterUtcMidnight, openSocket } from '../helpers/trust.js';

// Two instances on one PostgreSQL (only with DATABASE_URL): limits, the daily quota and ended
// sessions are shared; a subscriber whose event connection drops misses nothing.
let fake: FakeOpenAI;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  if (process.env.DATABASE_URL) fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
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
