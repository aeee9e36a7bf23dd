import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../../src/server/db/dataDirLock.js';
import { moveDatabase, MoveRefusedError } from '../../src/server/db/moveDatabase.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// `npm run db:move`: a team's embedded PGlite database, with users, sessions, chats,
// goals, API keys and an encrypted Microsoft connection, moved to a fresh PostgreSQL database;
// then the server started on PostgreSQL keeps every one of them working. Runs where a PostgreSQL
// server is given (DATABASE_URL, as in CI's second pass); the source is always PGlite.
const root = path.resolve(import.meta.dirname, '../..');
const tokenKey = 'move-test-token-key-0123456789-abcdefghijklmnop';

/** `npm run db:move -- …` as a person runs it, on the given DATA_DIR. */
function moveCli(args: string[], dataDir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/db/moveCli.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
    timeout: 120_000,
  });
}

describe.runIf(Boolean(process.env.DATABASE_URL))('moving the embedded database to PostgreSQL', () => {
  let graph: FakeGraph;
  let sourceDir: string;
  let target: FreshDatabase;
  let spare: FreshDatabase;
  let moved: TestServer | undefined;
  const env = () => ({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, TOKEN_ENCRYPTION_KEY: tokenKey });

  // What the user had before the move.
  let cookie = '';
  let apiKey = '';
  let chatIds: number[] = [];
  let goalId = 0;
  const username = `mover_${Date.now()}`;

  beforeAll(async () => {
    graph = await startFakeGraph();
    sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-move-'));
    [target, spare] = await Promise.all([freshDatabase({ empty: true }), freshDatabase({ empty: true })]);
    const embedded: FreshDatabase = { dataDir: sourceDir, databaseUrl: undefined, dispose: async () => {} };
    const source = await startTestServer(env(), embedded);
    try {
      const { http } = await signUp(source.url, username);
      cookie = http.cookieHeader;
      for (const content of ['Plan my first week as a manager', 'How do I give feedback?']) {
        const chat = (await http.post('/api/chats')).json;
        expect((await http.post(`/api/chats/${chat.id}/messages`, { content })).status).toBe(201);
        await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1)?.status === 'complete');
        chatIds.push(chat.id);
      }
      goalId = (await http.post('/api/goals', { title: 'Ship the onboarding guide', framework: 'SMART', dueDate: '2099-01-31', keyResults: [{ title: 'Pages written', start: 0, target: 10, unit: 'pages' }] })).json.id;
      apiKey = (await http.post('/api/api-keys', { name: 'Laptop script' })).json.key;
      const box = graph.addMailbox({ tokens: ['moved-mail-token'], mail: `${username}@contoso.example` });
      box.addMessages([{ subject: 'Quarterly plan', fromName: 'Sam Lee', fromAddress: 'sam@contoso.example', body: 'Draft attached' }]);
      expect((await http.post('/api/auth/microsoft/manual-token', { token: 'moved-mail-token', service: 'microsoft_email' })).status).toBe(200);

      // A move while the server runs on the same DATA_DIR is refused by the data directory's lock.
      await expect(moveDatabase({ from: { kind: 'pglite', directory: path.join(sourceDir, 'pglite') }, to: { kind: 'postgresql', url: target.databaseUrl! }, dataDir: sourceDir })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await source.stop();
    }
  }, 180_000);

  afterAll(async () => {
    await moved?.stop();
    await target?.dispose();
    await spare?.dispose();
    await graph?.close();
    fs.rmSync(sourceDir, { recursive: true, force: true });
  });

  const from = () => ({ kind: 'pglite' as const, directory: path.join(sourceDir, 'pglite') });

  async function rowsIn(url: string): Promise<Record<string, number>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
      const counts: Record<string, number> = {};
      for (const { name } of tables.rows) counts[name] = (await client.query<{ n: number }>(`select count(*)::int as n from "${name}"`)).rows[0]!.n;
      return counts;
    } finally {
      await client.end();
    }
  }

  it('leaves the target empty when the move fails half-way', async () => {
    let copied = 0;
    const failing = moveDatabase({
      from: from(),
      to: { kind: 'postgresql', url: spare.databaseUrl! },
      dataDir: sourceDir,
      batchRows: 1,
      onTableCopied: () => {
        if (++copied === 4) throw new Error('the network went away');
      },
    });
    await expect(failing).rejects.toThrow('the network went away');
    const left = await rowsIn(spare.databaseUrl!);
    expect(Object.keys(left).length).toBeGreaterThan(8);
    for (const [table, n] of Object.entries(left)) expect(n, table).toBe(table === 'mikro_orm_migrations' ? n : 0);
  }, 120_000);

  it('moves every table with `npm run db:move -- --to`, printing equal row counts, into the database a failed move left empty', async () => {
    // The failed move above migrated `spare` and left it empty: the real move goes there.
    const run = moveCli(['--to', spare.databaseUrl!], sourceDir);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    // Every table of the catalog is listed, with the same count on both sides.
    const after = await rowsIn(spare.databaseUrl!);
    for (const table of ['app_user', 'auth_session', 'chat', 'message', 'goal', 'key_result', 'api_key', 'microsoft_connection', 'security_event']) {
      expect(after[table], table).toBeGreaterThan(0);
    }
    for (const [table, n] of Object.entries(after)) {
      if (table !== 'mikro_orm_migrations') expect(run.stdout).toMatch(new RegExp(`^${table}\\s+${n}\\s+${n}$`, 'm'));
    }
    expect(run.stdout).not.toContain('DIFFERENT');
    expect(run.stdout).not.toMatch(/^mikro_orm_migrations\s/m);
    expect(run.stdout).toContain('Done: every table has the same number of rows in both databases.');

    // A second move into the same database is refused: it is not empty any more.
    await expect(moveDatabase({ from: from(), to: { kind: 'postgresql', url: spare.databaseUrl! }, dataDir: sourceDir })).rejects.toBeInstanceOf(MoveRefusedError);
  }, 180_000);

  it('keeps sessions, passwords, API keys, Microsoft tokens, chats and goals working on PostgreSQL', async () => {
    moved = await startTestServer(env(), { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-moved-')), databaseUrl: spare.databaseUrl, dispose: async () => {} });
    // The session cookie of the embedded server signs in on PostgreSQL (its session row moved).
    const browser = new HttpClient(moved.url, { headers: { cookie } });
    const chats = await browser.get('/api/chats');
    expect(chats.status).toBe(200);
    expect(chats.json.map((c: { id: number }) => c.id).sort()).toEqual([...chatIds].sort());
    const messages = (await browser.get(`/api/chats/${chatIds[0]}/messages`)).json;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0].content).toBe('Plan my first week as a manager');

    // The password still signs in.
    const fresh = new HttpClient(moved.url);
    expect((await fresh.post('/api/auth/login', { username, password: 'secret123' })).status).toBe(200);
    expect((await fresh.get(`/api/goals/${goalId}`)).json.title).toBe('Ship the onboarding guide');

    // The API key still works.
    const script = new HttpClient(moved.url, { origin: false, headers: { authorization: `Bearer ${apiKey}` } });
    expect((await script.get('/api/chats')).json).toHaveLength(2);

    // The Microsoft token, sealed with TOKEN_ENCRYPTION_KEY, still opens and reads mail.
    const mail = await fresh.get('/api/microsoft-graph/real-emails');
    expect(mail.status).toBe(200);
    expect(mail.json.emails.map((e: { subject: string }) => e.subject)).toEqual(['Quarterly plan']);

    // Sequences were set past the highest ids: new rows get new ids.
    const chat = await fresh.post('/api/chats', { title: 'After the move' });
    expect(chat.status).toBe(201);
    expect(chat.json.id).toBeGreaterThan(Math.max(...chatIds));
    expect((await fresh.post('/api/api-keys', { name: 'Second key' })).status).toBe(201);
    // The security activity moved too, and goes on.
    const kinds = (await fresh.get('/api/security-events')).json.events.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['api_key_created', 'sign_in']);
    expect(kinds).toContain('microsoft_connected');
  }, 120_000);

  it('moves back with `npm run db:move -- --from` into an empty DATA_DIR, and the embedded server there keeps everything working', async () => {
    await moved?.stop();
    moved = undefined;
    const backDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-back-'));
    try {
      const run = moveCli(['--from', spare.databaseUrl!], backDir);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`to the embedded database in ${backDir}`);
      expect(run.stdout).not.toContain('DIFFERENT');
      expect(run.stdout).toContain('Done: every table has the same number of rows in both databases.');
      // Once the embedded database holds the rows, a second move into it is refused.
      const again = moveCli(['--from', spare.databaseUrl!], backDir);
      expect(again.status).toBe(1);
      expect(again.stdout).not.toContain('Done:');

      const back = await startTestServer(env(), { dataDir: backDir, databaseUrl: undefined, dispose: async () => {} });
      try {
        // The same cookie, password and API key; the chat made on PostgreSQL came back too.
        const browser = new HttpClient(back.url, { headers: { cookie } });
        const titles = (await browser.get('/api/chats')).json.map((c: { title: string }) => c.title);
        expect(titles).toHaveLength(3);
        expect(titles).toContain('After the move');
        const fresh = new HttpClient(back.url);
        expect((await fresh.post('/api/auth/login', { username, password: 'secret123' })).status).toBe(200);
        const script = new HttpClient(back.url, { origin: false, headers: { authorization: `Bearer ${apiKey}` } });
        expect((await script.get('/api/chats')).json).toHaveLength(3);
        expect((await fresh.get('/api/microsoft-graph/real-emails')).json.emails.map((e: { subject: string }) => e.subject)).toEqual(['Quarterly plan']);
        // Sequences were set on the embedded side as well.
        const chat = await fresh.post('/api/chats', { title: 'Back home' });
        expect(chat.status).toBe(201);
        expect(chat.json.id).toBeGreaterThan(Math.max(...chatIds));
      } finally {
        await back.stop();
      }
    } finally {
      fs.rmSync(backDir, { recursive: true, force: true });
    }
  }, 240_000);
});
