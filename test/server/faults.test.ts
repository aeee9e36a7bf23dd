import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTexts, commonTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { replyOrphanedAfterMs, settleOrphanedReplies } from '../../src/server/features/chats/orphanedReplies.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { freshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Faults injected while the app serves: a slow, failing or cut model, PostgreSQL restarted under
// load, and the process killed mid-reply. Nothing the user wrote is lost, and nothing hangs.

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

async function messagesOf(http: HttpClient, chatId: number) {
  return (await http.get(`/api/chats/${chatId}/messages`)).json as Array<{ role: string; status: string; content: string }>;
}

describe('the model slow, failing or cut mid-stream', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, MODEL_DAILY_QUOTA: '0' });
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  }, 120_000);

  it('keeps the user message at once while a slow model is still answering, then completes', async () => {
    fake.behave({ tokens: ['Slow', ' but', ' sure'], tokenDelayMs: 400 });
    const { http } = await signUp(server.url, 'slow_model');
    const chat = (await http.post('/api/chats')).json;
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Take your time' })).status).toBe(201);
    expect((await messagesOf(http, chat.id)).map((m) => [m.role, m.status])).toEqual([['user', 'complete'], ['assistant', 'streaming']]);
    await eventually(async () => (await messagesOf(http, chat.id))[1]?.status === 'complete', 10_000);
    expect((await messagesOf(http, chat.id))[1]!.content).toBe('Slow but sure');
  });

  it('tells a /ws user clearly when the model is cut mid-stream, keeping the message and the partial reply', async () => {
    fake.behave({ tokens: ['Half', ' an', ' answer', ' lost'], tokenDelayMs: 5, failAfterTokens: 2 });
    const { http } = await signUp(server.url, 'cut_model');
    const chat = (await http.post('/api/chats')).json;
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: http.cookieHeader, origin: server.url } });
    const frames: Array<{ type: string; message?: any }> = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'chat_message', chatId: chat.id, content: 'Please keep me' }));
    await eventually(() => frames.some((f) => f.type === 'error'));
    expect(frames.find((f) => f.type === 'error')!.message).toBe(chatTexts.replyFailed);
    ws.close();
    expect((await messagesOf(http, chat.id)).map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'complete', 'Please keep me'],
      ['assistant', 'failed', 'Half an'],
    ]);
  });

  it('keeps the message and reports the failure when the model fails outright', async () => {
    fake.behave({ status: 500 });
    const { http } = await signUp(server.url, 'failing_model');
    const chat = (await http.post('/api/chats')).json;
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Still here?' })).status).toBe(201);
    await eventually(async () => (await messagesOf(http, chat.id)).length === 1);
    expect((await messagesOf(http, chat.id)).map((m) => [m.role, m.content])).toEqual([['user', 'Still here?']]);
  });
});

describe('the daily model quota', () => {
  it('answers 429 with a clear message once the quota is spent, per user, and keeps what was written', { timeout: 120_000 }, async () => {
    fake.behave({ tokens: ['ok'] });
    const server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, MODEL_DAILY_QUOTA: '2' });
    try {
      const { http } = await signUp(server.url, 'quota_user');
      const chat = (await http.post('/api/chats')).json;
      for (const content of ['one', 'two']) {
        expect((await http.post(`/api/chats/${chat.id}/messages`, { content })).status).toBe(201);
        await eventually(async () => (await messagesOf(http, chat.id)).every((m) => m.status !== 'streaming'));
      }
      const spent = await http.post(`/api/chats/${chat.id}/messages`, { content: 'three' });
      expect(spent.status).toBe(429);
      expect(spent.json.message).toBe(chatTexts.dailyQuotaSpent(2));
      // The OpenAI-compatible endpoint draws on the same quota.
      const completion = await http.post('/api/openai/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
      expect(completion.status).toBe(429);
      expect((await messagesOf(http, chat.id)).map((m) => m.content)).toEqual(['one', 'ok', 'two', 'ok']);
      // Another user has their own quota.
      const other = await signUp(server.url, 'quota_other');
      const otherChat = (await other.http.post('/api/chats')).json;
      expect((await other.http.post(`/api/chats/${otherChat.id}/messages`, { content: 'mine' })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('an instance killed mid-reply (SIGKILL)', () => {
  // On PostgreSQL (DATABASE_URL) the next instance cannot know the killed one is gone: it finds the
  // reply orphaned by its heartbeat going quiet (orphanedReplies.ts), seconds later, not minutes.
  it('marks the reply under way stopped with its partial text once another instance starts, and the chat takes messages again', async () => {
    const database = await freshDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, MODEL_DAILY_QUOTA: '0' };
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: database.dataDir,
        DATABASE_URL: database.databaseUrl ?? '',
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    let next: TestServer | undefined;
    let trpc: ReturnType<typeof trpcClientFor> | undefined;
    try {
      // A cold start (tsx, migrations) takes a while on a busy machine.
      await eventually(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 90_000);
      fake.behave({ tokens: Array.from({ length: 400 }, (_, i) => ` w${i}`), tokenDelayMs: 15 });
      const { http } = await signUp(url, 'killed_mid_reply');
      const chat = (await http.post('/api/chats')).json;
      expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Tell me everything' })).status).toBe(201);
      // Past a checkpoint (the row holds part of the reply), far from the end: the event, not a fixed wait.
      await eventually(async () => /^ w0 w1 w2/.test((await messagesOf(http, chat.id))[1]?.content ?? ''), 30_000);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();

      // Another instance on the same database, within seconds (on the embedded database it first
      // waits for the dead server's lock to go stale).
      next = await startTestServer(env, { ...database, dispose: async () => {} });
      const onNext = new HttpClient(next.url);
      expect((await onNext.post('/api/auth/login', { username: 'killed_mid_reply', password: 'secret123' })).status).toBe(200);
      trpc = trpcClientFor(next.url, onNext);
      const events: Array<{ type: string; message?: { id: number; status: string; content: string } }> = [];
      await new Promise<void>((resolve) => {
        trpc!.client.chats.events.subscribe({ chatId: chat.id }, { onStarted: () => resolve(), onData: (e) => void events.push((e as any).data) });
      });
      const streamingWhenSubscribed = (await messagesOf(onNext, chat.id))[1]?.status === 'streaming';

      await eventually(async () => (await messagesOf(onNext, chat.id))[1]?.status === 'stopped', 20_000);
      expect(Date.now() - killedAt).toBeLessThan(20_000);
      const messages = await messagesOf(onNext, chat.id);
      expect(messages[0]).toMatchObject({ role: 'user', status: 'complete', content: 'Tell me everything' });
      expect(messages[1]).toMatchObject({ role: 'assistant', status: 'stopped' });
      expect(messages[1]!.content).toMatch(/^ w0 w1 w2/);
      expect(messages[1]!.content.length).toBeLessThan(400 * 5);
      // Settled while subscribed: the subscriber was told, with the partial text.
      if (streamingWhenSubscribed) {
        await eventually(() => events.some((e) => e.type === 'message.completed'));
        expect(events.find((e) => e.type === 'message.completed')!.message).toMatchObject({ status: 'stopped', content: messages[1]!.content });
      }
      // The chat is not stuck behind a reply that will never end.
      fake.behave({ tokens: ['back'] });
      expect((await onNext.post(`/api/chats/${chat.id}/messages`, { content: 'Are you back?' })).status).toBe(201);
      await eventually(async () => (await messagesOf(onNext, chat.id))[3]?.status === 'complete');
    } finally {
      child.kill('SIGKILL');
      trpc?.close();
      await next?.stop();
      await database.dispose();
    }
  }, 240_000);

  describe('on a running server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, MODEL_DAILY_QUOTA: '0' });
    }, 120_000);
    afterAll(async () => {
      await server.stop();
    }, 120_000);

    // A reply left by an instance that died, as the database holds it.
    async function orphanedReply(chatId: number, content: string) {
      const em = server.deps.orm.em.fork();
      const reply = em.create(Message, { chat: chatId, role: 'assistant', content, status: 'streaming' });
      await em.flush();
      await em.nativeUpdate(Message, { id: reply.id }, { updatedAt: new Date(Date.now() - 60_000) });
      return reply.id;
    }

    it('settles at once a stop asked for an orphaned reply, telling subscribers', async () => {
      const { http } = await signUp(server.url, 'stop_orphan');
      const chat = (await http.post('/api/chats')).json;
      const id = await orphanedReply(chat.id, 'Half a thought');
      const trpc = trpcClientFor(server.url, http);
      try {
        const events: Array<{ type: string; message?: unknown }> = [];
        await new Promise<void>((resolve) => {
          trpc.client.chats.events.subscribe({ chatId: chat.id }, { onStarted: () => resolve(), onData: (e) => void events.push((e as any).data) });
        });
        expect(await trpc.client.chats.stop.mutate({ chatId: chat.id })).toEqual({ success: true, messageId: id });
        expect((await messagesOf(http, chat.id)).map((m) => [m.status, m.content])).toEqual([['stopped', 'Half a thought']]);
        await eventually(() => events.some((e) => e.type === 'message.completed'));
        expect(events.find((e) => e.type === 'message.completed')!.message).toMatchObject({ id, status: 'stopped', content: 'Half a thought' });
        // Settled once: a second sweep finds nothing.
        expect(await settleOrphanedReplies(server.deps.orm.em, server.deps.chatBus, { chatId: chat.id })).toEqual([]);
      } finally {
        trpc.close();
      }
    });

    it('never takes a live reply for orphaned, however long the model stays silent', async () => {
      // Silent past the orphan time before its first token, then 3 s more before the last: the sweep
      // below runs in the silence, and the reply is still streaming when it is checked.
      fake.behave({ tokens: ['Silent', ' then done'], firstTokenDelayMs: replyOrphanedAfterMs + 1_500, tokenDelayMs: 3_000 });
      const { http } = await signUp(server.url, 'silent_model');
      const chat = (await http.post('/api/chats')).json;
      expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Think hard' })).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, replyOrphanedAfterMs + 1_000));
      // As another instance would sweep (it does not know this one's replies): the heartbeat kept it live.
      expect(await settleOrphanedReplies(server.deps.orm.em, server.deps.chatBus)).toEqual([]);
      expect((await messagesOf(http, chat.id))[1]?.status).toBe('streaming');
      fake.behave({ tokens: ['ok'] }); // the reply under way keeps its own behaviour
      await eventually(async () => (await messagesOf(http, chat.id))[1]?.status === 'complete', 30_000);
      expect((await messagesOf(http, chat.id))[1]!.content).toBe('Silent then done');
    }, 60_000);
  });
});

// A PostgreSQL cluster of our own, on its own port and directory: the machine's shared server
// on 5432 is never stopped. It needs root (to run it as the postgres user) and the server binaries.
const pgBin = ['/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/17/bin'].find((dir) => fs.existsSync(`${dir}/initdb`));
const canRunOwnPostgres = process.getuid?.() === 0 && Boolean(pgBin) && spawnSync('id', ['postgres']).status === 0;
if (!canRunOwnPostgres) console.warn('faults.test: skipping the PostgreSQL restart test: it needs root, a postgres user and PostgreSQL server binaries');

describe.runIf(canRunOwnPostgres)('PostgreSQL restarted under load', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-pg-'));
  const pgPort = Number(process.env.FAULTS_PG_PORT ?? 55811);
  const asPostgres = (command: string) => {
    const result = spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${command}: ${result.stderr || result.stdout}`);
  };
  const pgCtl = (action: string) =>
    asPostgres(`${pgBin}/pg_ctl -D ${dir}/data -l ${dir}/log -o "-c listen_addresses=127.0.0.1 -p ${pgPort} -k ${dir}" -w ${action}`);
  let server: TestServer;

  beforeAll(async () => {
    fs.chmodSync(dir, 0o755);
    spawnSync('chown', ['postgres:postgres', dir]);
    asPostgres(`${pgBin}/initdb -D ${dir}/data -U postgres --auth=trust >/dev/null`);
    pgCtl('start');
    const databaseUrl = `postgresql://postgres@127.0.0.1:${pgPort}/postgres`;
    server = await startTestServer({ MODEL_DAILY_QUOTA: '0' }, { dataDir: dir, databaseUrl, dispose: async () => {} });
  }, 90_000);
  afterAll(async () => {
    // The cluster is stopped whatever happens to the app's shutdown.
    await Promise.race([server?.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 20_000))]);
    try {
      pgCtl('stop -m immediate');
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with a message during the outage, /readyz fails, and both recover without a restart', async () => {
    const { http } = await signUp(server.url, 'pg_restart');
    const chat = (await http.post('/api/chats')).json;

    // Load: a steady stream of reads and writes for the whole test.
    const statuses: number[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const results = await Promise.all([
          http.get('/api/chats'),
          http.put(`/api/chats/${chat.id}`, { isPinned: statuses.length % 2 === 0 }),
          fetch(`${server.url}/trpc/chats.list`, { headers: { cookie: http.cookieHeader } }),
        ]);
        statuses.push(...results.map((r) => r.status));
      }
    })();
    await eventually(() => statuses.length > 30);

    pgCtl('stop -m fast');
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    const during = await http.get('/api/chats');
    expect(during.status).toBe(503);
    expect(during.json.message).toBe(commonTexts.databaseUnavailable);
    await new Promise((resolve) => setTimeout(resolve, 500));

    pgCtl('start');
    await eventually(async () => (await fetch(`${server.url}/readyz`)).status === 200, 30_000);
    await eventually(async () => (await http.get('/api/chats')).status === 200, 30_000);
    const after = statuses.length;
    await eventually(() => statuses.length > after + 30);
    loading = false;
    await load;

    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(statuses.at(-1)).toBe(200);
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'After the restart' })).status).toBe(201);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 90_000);
});
