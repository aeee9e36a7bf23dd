// Issue 51, item 7: Entra provisions a whole company at once. 10,000 users and 200 groups through
// SCIM on one instance on PostgreSQL, in Entra's own sequence, well within Entra's 40-minute cycle.
//
// Per run: a fresh PostgreSQL database, the real server in its own process (src/server/main.ts
// through tsx, as `npx tsx src/server/main.ts` runs it), an admin (ORG_ADMINS) who sets the seats
// (12,000: the seat count is checked under the organisation's lock for each user) and creates a
// SCIM token, then the provisioning cycle as Entra's service plays it, BENCH_CONCURRENCY requests
// in flight at once:
//   - each user: GET /Users?filter=userName eq "…" (the match; nobody is found), then POST /Users
//     with the name, work email, externalId (the object id) and the enterprise extension's
//     department and manager (the manager's SCIM id once that user exists, as Entra resolves it);
//   - then each group: GET /Groups?filter=displayName eq "…"&excludedAttributes=members, POST
//     /Groups without members, then PATCH /Groups/{id} adding its BENCH_GROUP_MEMBERS members
//     (Entra's `Add` of `members` with a list of values).
// It prints the total time, users per second, and p50/p95/max per kind of request; then checks
// the database: 10,001 active accounts, 200 groups, 200 × BENCH_GROUP_MEMBERS memberships.
//
// Run: npm run bench:scim   (BENCH_USERS=10000 BENCH_GROUPS=200 BENCH_GROUP_MEMBERS=50
// BENCH_CONCURRENCY=10 BENCH_RUNS=3 BENCH_ADMIN_URL=postgresql://postgres@127.0.0.1:5432/postgres).
// Exits 1 when a request fails or a run takes longer than BENCH_BUDGET_S (2400: Entra's cycle).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './support/freePort.js';

const users = Number(process.env.BENCH_USERS ?? 10_000);
const groups = Number(process.env.BENCH_GROUPS ?? 200);
const groupMembers = Number(process.env.BENCH_GROUP_MEMBERS ?? 50);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const budgetMs = Number(process.env.BENCH_BUDGET_S ?? 2400) * 1000;
const adminUrl = process.env.BENCH_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function startServer(port: number, databaseUrl: string, dataDir: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: 'scim-bench-session-secret-0123456789abcdef',
      DEMO_MODE: 'false',
      LOG_LEVEL: 'warn',
      ORG_ADMINS: 'bench-admin',
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim() && !line.includes('Unknown user config')) console.error(`  [server] ${line.slice(0, 400)}`);
  });
  return child;
}

async function waitFor(url: string, child: ChildProcess, seconds = 120) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** The admin's session: registered (ORG_ADMINS names it), seats set, a SCIM token created. */
async function scimToken(baseUrl: string): Promise<string> {
  const origin = { origin: baseUrl };
  const registered = await fetch(`${baseUrl}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...origin }, body: JSON.stringify({ username: 'bench-admin', password: 'bench-password-1', fullName: 'Bench Admin' }) });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const seats = await fetch(`${baseUrl}/api/admin/organisation`, { method: 'PATCH', headers: { 'content-type': 'application/json', cookie, ...origin }, body: JSON.stringify({ seats: users + 2000 }) });
  if (seats.status !== 200) throw new Error(`seats: ${seats.status} ${await seats.text()}`);
  const created = await fetch(`${baseUrl}/api/admin/scim-tokens`, { method: 'POST', headers: { cookie, ...origin } });
  if (created.status !== 201) throw new Error(`token: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { token: string }).token;
}

type Timings = Record<string, number[]>;

async function oneRun(index: number) {
  const name = `scim_bench_${process.pid}_${index}`;
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-scim-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer(port, url.toString(), dataDir);
  try {
    await waitFor(`${baseUrl}/readyz`, server);
    const token = await scimToken(baseUrl);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
    const timings: Timings = {};
    const failures: string[] = [];
    const scim = async (kind: string, method: string, pathAndQuery: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/scim/v2${pathAndQuery}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      const list = timings[kind] ?? [];
      list.push(performance.now() - started);
      timings[kind] = list;
      if (res.status >= 300 && failures.length < 10) failures.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    // Entra's workers: `concurrency` of them take the next item until none is left.
    const inParallel = async (count: number, work: (i: number) => Promise<void>) => {
      let next = 0;
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < count) await work(next++);
      }));
    };
    const ids: string[] = new Array(users);
    const loadBefore = load();
    const started = performance.now();
    await inParallel(users, async (i) => {
      const userName = `user${String(i).padStart(5, '0')}@contoso.example`;
      await scim('GET /Users?filter', 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
      // Each user's manager: the first user of their team of 10 (already provisioned, most of the time).
      const manager = ids[i - (i % 10)];
      const created = await scim('POST /Users', 'POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        userName,
        active: true,
        displayName: `User ${i}`,
        emails: [{ primary: true, type: 'work', value: userName }],
        name: { givenName: 'User', familyName: String(i) },
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: `Department ${i % 40}`, ...(manager ? { manager: { value: manager } } : {}) },
      });
      ids[i] = String(created.json.id);
    });
    const usersMs = performance.now() - started;
    await inParallel(groups, async (g) => {
      const displayName = `Group ${g}`;
      await scim('GET /Groups?filter', 'GET', `/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}&excludedAttributes=members`);
      const created = await scim('POST /Groups', 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName, externalId: `10000000-0000-4000-8000-${String(g).padStart(12, '0')}`, members: [] });
      const members = Array.from({ length: groupMembers }, (_, m) => ({ value: ids[(g * groupMembers + m) % users]! }));
      await scim('PATCH /Groups (add members)', 'PATCH', `/Groups/${created.json.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Add', path: 'members', value: members }] });
    });
    const totalMs = performance.now() - started;
    const loadAfter = load();
    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    const counted = (await check.query(`select (select count(*) from "app_user" where "active")::int as active, (select count(*) from "scim_group")::int as groups, (select count(*) from "scim_group_member")::int as memberships, (select count(*) from "app_user" where "scim_profile" ->> 'manager' is not null)::int as managed`)).rows[0] as { active: number; groups: number; memberships: number; managed: number };
    await check.end();
    const requests = Object.values(timings).reduce((sum, list) => sum + list.length, 0);
    return { index, usersMs, totalMs, requests, timings, failures, counted, loadBefore, loadAfter };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists "${name}" with (force)`);
  }
}

async function main() {
  console.log(`SCIM bench: ${users} users, ${groups} groups of ${groupMembers}, ${concurrency} requests in flight, ${runs} runs; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  const results = [];
  let failed = false;
  for (let i = 1; i <= runs; i++) {
    const result = await oneRun(i);
    results.push(result);
    console.log(`run ${i}: all ${result.requests} requests in ${(result.totalMs / 1000).toFixed(1)} s (users ${(result.usersMs / 1000).toFixed(1)} s: ${(users / (result.usersMs / 1000)).toFixed(0)} users/s; ${(result.requests / (result.totalMs / 1000)).toFixed(0)} requests/s); load before ${result.loadBefore}, after ${result.loadAfter}`);
    for (const [kind, list] of Object.entries(result.timings)) console.log(`  ${kind.padEnd(28)} n=${String(list.length).padStart(5)}  p50 ${ms(quantile(list, 0.5))}  p95 ${ms(quantile(list, 0.95))}  max ${ms(Math.max(...list))}`);
    console.log(`  database: ${result.counted.active} active accounts (${result.counted.managed} with a manager), ${result.counted.groups} groups, ${result.counted.memberships} memberships`);
    if (result.failures.length) {
      failed = true;
      console.log(`  FAILED requests: ${result.failures.join(' | ')}`);
    }
    if (result.counted.active !== users + 1 || result.counted.groups !== groups || result.counted.memberships !== groups * Math.min(groupMembers, users)) failed = true;
    if (result.totalMs > budgetMs) failed = true;
  }
  const totals = results.map((r) => r.totalMs).sort((a, b) => a - b);
  console.log(`median ${(totals[Math.floor(totals.length / 2)]! / 1000).toFixed(1)} s, worst ${(totals.at(-1)! / 1000).toFixed(1)} s (budget ${budgetMs / 1000} s)`);
  process.exit(failed ? 1 : 0);
}

await main();
