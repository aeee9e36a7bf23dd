// Memory and search (issue 24) with 500 memories and 10,000 messages: the context assembly and a
// search across chats each answer in under 50 ms at the 95th percentile.
//
// Starts the real server (embedded PGlite in a temporary directory, or PostgreSQL with
// BENCH_DATABASE_URL naming an empty database), signs up a user and writes straight into the
// database 500 memories and 10,000 messages over 100 chats (sentences from a vocabulary of 400
// words, so every query word matches a share of them), plus the same for a second user (their rows
// must not be read). Then, each run:
//   - context: the whole context assembly a chat reply makes (loadCoachFacts, then
//     assembleCoachContext for a latest message of 12 vocabulary words, which ranks the 500
//     memories), 100 samples;
//   - search: GET /api/search?q=<one or two vocabulary words> over HTTP with the session cookie,
//     end to end, 100 samples.
// Prints each run's p50 and p95, then the median p95 of the runs and the worst. Exits 1 when the
// median p95 of either is over budget.
//
// Run: npx tsx bench/memory.ts (npm run bench:memory). BENCH_RUNS (default 5).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/server/config.js';
import { loadCoachFacts } from '../src/server/coachFacts.js';
import { assembleCoachContext } from '../src/server/features/coach/coachContext.js';
import { startServer } from '../src/server/server.js';

const budgetMs = 50;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const samples = 100;
const memories = 500;
const chats = 100;
const messagesPerChat = 100;

const vocabulary = Array.from({ length: 400 }, (_, i) => {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'pe', 'do', 'gu', 'ha', 'ze', 'fi', 'bo', 'ly'];
  return `${syllables[i % 16]}${syllables[Math.floor(i / 16) % 16]}${syllables[(i * 7) % 16]}r`;
});
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const word = () => vocabulary[Math.floor(random() * vocabulary.length)]!;
const sentence = (words: number) => Array.from({ length: words }, word).join(' ');
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const median = (values: number[]) => percentile(values, 0.5);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-memory-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  DEMO_MODE: 'false',
  LOG_LEVEL: 'silent',
  SESSION_SECRET: 'bench-session-secret-long-enough-0123456789',
  RATE_LIMIT_REGISTER_PER_HOUR: '0',
});
const server = await startServer(config, { log: pino({ level: 'silent' }) });
let failed = false;
try {
  const signUp = async (username: string) => {
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username, password: 'bench-password', fullName: 'Bench Person' }),
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
    return { userId: ((await res.json()) as { user: { id: number } }).user.id, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ') };
  };
  const me = await signUp('bench_memory');
  const other = await signUp('bench_memory_other');

  const connection = server.deps.orm.em.fork().getConnection();
  const started = performance.now();
  for (const userId of [me.userId, other.userId]) {
    const kinds = ['fact', 'preference', 'person', 'commitment'];
    for (let i = 0; i < memories; i += 100) {
      const rows = Array.from({ length: 100 }, (_, j) => [userId, sentence(6 + ((i + j) % 10)), kinds[(i + j) % 4]]);
      await connection.execute(
        `insert into memory (owner_id, text, kind, created_at, updated_at) values ${rows.map(() => `(?, ?, ?, now() - random() * interval '60 days', now() - random() * interval '60 days')`).join(', ')}`,
        rows.flat(),
      );
    }
    for (let c = 0; c < chats; c++) {
      const [chat] = await connection.execute<Array<{ id: number }>>(`insert into chat (owner_id, title, is_pinned, is_temporary, created_at, updated_at) values (?, ?, false, false, now(), now()) returning id`, [userId, `Bench chat ${c}`]);
      const rows = Array.from({ length: messagesPerChat }, (_, m) => [chat!.id, m % 2 ? 'assistant' : 'user', sentence(m % 2 ? 60 : 15)]);
      await connection.execute(
        `insert into message (chat_id, role, content, status, created_at, updated_at) values ${rows.map(() => `(?, ?, ?, 'complete', now(), now())`).join(', ')}`,
        rows.flat(),
      );
    }
  }
  await connection.execute('analyze');
  const [{ count }] = await connection.execute<Array<{ count: string }>>('select count(*) from message m join chat c on c.id = m.chat_id where c.owner_id = ?', [me.userId]);
  console.log(`seeded ${memories} memories and ${count} messages a user, for 2 users, in ${Math.round(performance.now() - started)} ms (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

  const user = { fullName: 'Bench Person', jobTitle: null, company: null };
  const contextP95: number[] = [];
  const searchP95: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const contextTimes: number[] = [];
    for (let i = 0; i < samples + 5; i++) {
      const latest = sentence(12);
      const t0 = performance.now();
      const em = server.deps.orm.em.fork();
      const facts = await loadCoachFacts(server.deps, em, me.userId);
      const context = await assembleCoachContext({ user, history: [{ role: 'user', content: latest }], latestUserMessage: latest, facts });
      const elapsed = performance.now() - t0;
      if (!context.memories.length) throw new Error('the context has no memories');
      if (i >= 5) contextTimes.push(elapsed);
    }
    const searchTimes: number[] = [];
    for (let i = 0; i < samples + 5; i++) {
      const q = random() < 0.5 ? word() : `${word()} ${word()}`;
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`, { headers: { cookie: me.cookie } });
      const body = (await res.json()) as { results: unknown[] };
      const elapsed = performance.now() - t0;
      if (res.status !== 200 || !Array.isArray(body.results)) throw new Error(`search failed: ${res.status}`);
      if (i >= 5) searchTimes.push(elapsed);
    }
    contextP95.push(percentile(contextTimes, 0.95));
    searchP95.push(percentile(searchTimes, 0.95));
    console.log(
      `run ${run}: context p50 ${median(contextTimes).toFixed(1)} ms, p95 ${percentile(contextTimes, 0.95).toFixed(1)} ms; ` +
        `search p50 ${median(searchTimes).toFixed(1)} ms, p95 ${percentile(searchTimes, 0.95).toFixed(1)} ms`,
    );
  }
  const report = (name: string, p95s: number[]) => {
    const mid = median(p95s);
    const worst = Math.max(...p95s);
    const ok = mid < budgetMs;
    if (!ok) failed = true;
    console.log(`${name}: p95 median of ${runs} runs ${mid.toFixed(1)} ms, worst ${worst.toFixed(1)} ms (budget ${budgetMs} ms) ${ok ? 'OK' : 'OVER BUDGET'}`);
  };
  report('context assembly', contextP95);
  report('search', searchP95);
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
