import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient } from '../helpers/server.js';

// Traces carry nothing a user wrote. On PostgreSQL MikroORM sends its statements with
// the values inlined, and the pg instrumentation records a statement's text: a real start (its own
// process, so that the instrumentations patch the modules as they load) on a fresh PostgreSQL
// database, against a fake OTLP collector, must send pg spans in which no attribute, name or
// status holds a marker the user typed, nor the password hash the server stored. PostgreSQL only:
// skipped without DATABASE_URL, like the other PostgreSQL tests.

type OtlpSpan = {
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { message?: string };
};
type Collector = { url: string; spans: OtlpSpan[]; bodies: string[]; close: () => Promise<void> };

async function startCollector(): Promise<Collector> {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};
const isPgSpan = (span: OtlpSpan) => attribute(span, 'db.system.name') === 'postgresql' || attribute(span, 'db.system') === 'postgresql';

describe.runIf(Boolean(process.env.DATABASE_URL))('traces on PostgreSQL hold no user values', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  let collector: Collector;
  let child: ChildProcess | undefined;
  let database: FreshDatabase;
  let dataDir: string;
  let output = '';

  beforeAll(async () => {
    collector = await startCollector();
    database = await freshDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-traces-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_MODE: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.databaseUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const force = setTimeout(() => child?.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    await collector?.close();
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('records a statement as its operation and table only: no message, memory, goal, search, name or password hash reaches the collector', async () => {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 150 s:\n${output}`)), 150_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const running = /AI Coach is running at (http:\/\/\S+)/.exec(output);
        if (running) {
          clearTimeout(timer);
          resolve(running[1]!);
        }
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });

    const marker = (what: string) => `zq${what}marker${Date.now().toString(36)}`;
    const typed = {
      username: marker('user'),
      fullName: marker('name'),
      message: marker('message'),
      memory: marker('memory'),
      goal: marker('goal'),
      search: marker('search'),
    };
    const browser = new HttpClient(url);
    const registered = await browser.post('/api/auth/register', { username: typed.username, password: 'Trace-secret-pass-1', fullName: typed.fullName });
    expect(registered.status).toBe(201);
    const chat = (await browser.post('/api/chats')).json;
    expect((await browser.post(`/api/chats/${chat.id}/messages`, { content: `Please help: ${typed.message}` })).status).toBe(201);
    await eventually(async () => (await browser.get(`/api/chats/${chat.id}/messages`)).json.at(-1)?.status === 'complete', 30_000);
    expect((await browser.post('/api/memories', { text: `I prefer ${typed.memory}` })).status).toBe(201);
    expect((await browser.post('/api/goals', { title: `Learn ${typed.goal}`, framework: 'SMART', dueDate: '2030-01-31' })).status).toBe(201);
    expect((await browser.get(`/api/search?q=${typed.search}`)).status).toBe(200);

    // The values the server itself wrote from what was typed: the password hash.
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    const stored = await client.query<{ password_hash: string }>('select password_hash from app_user where username = $1', [typed.username]).finally(() => client.end());
    const passwordHash = stored.rows[0]!.password_hash;
    expect(passwordHash.length).toBeGreaterThan(20);

    // The inserts of the message, the memory and the goal have been traced.
    const pgSpans = () => collector.spans.filter(isPgSpan);
    // (Connection spans carry no statement.)
    const statements = () => pgSpans().flatMap((s) => [attribute(s, 'db.query.text'), attribute(s, 'db.statement')].filter((v) => v !== undefined).map(String));
    await eventually(() => ['message', 'memory', 'goal'].every((table) => statements().some((s) => new RegExp(`^insert (into )?"?${table}\\b`, 'i').test(s))), 30_000);
    const everything = collector.bodies.join('\n');
    for (const [what, value] of Object.entries({ ...typed, passwordHash, passwordHashKey: passwordHash.split('$').at(-1)!, password: 'Trace-secret-pass-1' })) {
      expect(everything.includes(value), `${what} reached the collector`).toBe(false);
    }
    expect(statements()).toEqual(expect.arrayContaining(['INSERT message', 'INSERT memory', 'INSERT goal']));
    expect(statements().every((s) => /^[A-Z]+( [a-z_0-9]+)?$/.test(s)), statements().filter((s) => !/^[A-Z]+( [a-z_0-9]+)?$/.test(s)).join('\n')).toBe(true);

  }, 240_000);
});
