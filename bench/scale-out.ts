// Scale-out on real parts: two app instances (src/server/main.ts, each its own process) on one
// PostgreSQL, behind a real nginx started from deploy/nginx.conf. Every request and WebSocket of
// this script goes through nginx, round robin; nginx tells which instance served each one
// (an X-Upstream header added to the bench's copy of the configuration only).
//
// It proves that:
//   1. sign-up and log-in through nginx give a session that every instance honours;
//   2. BENCH_CHATS chats (200 by default), each with its own tRPC subscription and its own /ws
//      connection, all streaming at once, receive every event of their reply complete and in
//      order, whichever instance served the send and whichever the subscription; the stored reply
//      is the same text;
//   3. a logout served by one instance closes the session's sockets on the other, and its cookie
//      is refused by both.
// It prints a summary and exits 1 on any loss or failed check. Bounded: a fixed number of users,
// chats and sockets, and a watchdog (BENCH_TIMEOUT_S, 300 s) that stops everything.
//
//   npm run bench:scale-out    (needs Debian's nginx: apt-get install nginx; PostgreSQL)
//
// BENCH_PG_URL       PostgreSQL server where a throwaway database is created and dropped
//                    (default postgresql://postgres@127.0.0.1:5432/postgres)
// BENCH_DATABASE_URL use this existing database instead (not dropped)
// BENCH_CHATS (200), BENCH_USERS (10), BENCH_WS_CHATS (= BENCH_CHATS; chats also followed on /ws)
// BENCH_COMPILED=1   run the compiled server (node dist/server/main.js, what `npm start` runs;
//                    after `npm run build`) instead of src/server/main.ts through tsx
// NGINX              the nginx binary (default /usr/sbin/nginx)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, createWSClient, httpLink, splitLink, wsLink } from '@trpc/client';
import pg from 'pg';
import WebSocket from 'ws';
import type { AppRouter } from '../src/server/trpc/root.js';
import { freePort } from './support/freePort.js';

const chatCount = Number(process.env.BENCH_CHATS ?? 200);
const userCount = Math.min(chatCount, Number(process.env.BENCH_USERS ?? 10));
const wsChatCount = Math.min(chatCount, Number(process.env.BENCH_WS_CHATS ?? chatCount));
const timeoutSeconds = Number(process.env.BENCH_TIMEOUT_S ?? 300);
const nginxBinary = process.env.NGINX ?? '/usr/sbin/nginx';
const compiled = process.env.BENCH_COMPILED === '1';
const setupConcurrency = 20;
const password = 'scale-out-password-1';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const failures: string[] = [];
const fail = (message: string) => {
  failures.push(message);
  console.log(`  FAIL: ${message}`);
};
const log = (message: string) => console.log(message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

// --- Processes and their clean-up -----------------------------------------------------------

const children: ChildProcess[] = [];
const closers: Array<() => void> = []; // client sockets still open when the bench stops early
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-scale-out-'));
fs.chmodSync(tmp, 0o755); // nginx workers run as nobody and write their temp files below
let createdDatabase: { adminUrl: string; name: string } | undefined;

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  if (await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) return;
  child.kill('SIGKILL');
  await exited;
}

let cleaningUp: Promise<void> | undefined;
function cleanUp() {
  cleaningUp ??= (async () => {
    // Client sockets, then nginx (SIGQUIT: graceful), then the instances (SIGTERM: graceful).
    for (const close of closers.splice(0)) {
      try {
        close();
      } catch {
        // already closed
      }
    }
    const nginx = children.filter((child) => child.spawnfile === nginxBinary);
    await Promise.all(nginx.map((child) => stopChild(child, 'SIGQUIT', 10_000)));
    await Promise.all(children.filter((child) => !nginx.includes(child)).map((child) => stopChild(child, 'SIGTERM', 20_000)));
    if (createdDatabase) {
      const admin = new pg.Client({ connectionString: createdDatabase.adminUrl });
      try {
        await admin.connect();
        await admin.query(`drop database if exists "${createdDatabase.name}" with (force)`);
      } catch (error) {
        console.error(`could not drop database ${createdDatabase.name}:`, error);
      } finally {
        await admin.end().catch(() => {});
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  })();
  return cleaningUp;
}

const watchdog = setTimeout(() => {
  console.error(`\nWatchdog: the bench did not finish in ${timeoutSeconds} s; stopping everything.`);
  void cleanUp().finally(() => process.exit(2));
}, timeoutSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(130)));
}

async function waitFor(url: string, what: string, child: ChildProcess, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${what} did not answer ${url} within ${seconds} s`);
}

// --- The database, the instances, nginx ----------------------------------------------------

async function prepareDatabase(): Promise<string> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `ai_coach_scale_out_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  createdDatabase = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function startInstance(name: string, port: number, databaseUrl: string): ChildProcess {
  const dataDir = path.join(tmp, name);
  fs.mkdirSync(dataDir);
  // What `npx tsx src/server/main.ts` (or `npm start`) runs, without the npx, npm or tsx wrapper
  // processes in between, so that SIGTERM reaches the server itself.
  const child = spawn(process.execPath, compiled ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // Shared by every instance, as in deploy/compose.yaml.
      SESSION_SECRET: 'scale-out-bench-session-secret-0123456789abcdef',
      TOKEN_ENCRYPTION_KEY: 'scale-out-bench-token-key-0123456789abcdef',
      DEMO_MODE: 'false',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      // The built-in offline coach (it streams its reply in pieces, 12 ms apart).
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      // Load is not refused: every limit off.
      RATE_LIMIT_LOGIN_PER_USERNAME: '0',
      RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
      RATE_LIMIT_REGISTER_PER_HOUR: '0',
      RATE_LIMIT_CHAT_PER_MINUTE: '0',
      MODEL_DAILY_QUOTA: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() && !line.includes('Unknown user config')) console.error(`  [${name}] ${line.slice(0, 400)}`);
    }
  });
  children.push(child);
  return child;
}

// deploy/nginx.conf with the upstream servers, the listen address and every path rewritten into
// the temporary directory; each rewrite must find its line, so a changed file is noticed.
function nginxConfig(listenPort: number, upstreams: string[]): string {
  let conf = fs.readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  const rewrite = (pattern: RegExp, replacement: string) => {
    if (!pattern.test(conf)) throw new Error(`deploy/nginx.conf: no line matches ${pattern}`);
    conf = conf.replace(pattern, replacement);
  };
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(tmp, `${dir}_temp`), { mode: 0o777 });
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.chmodSync(path.join(tmp, `${dir}_temp`), 0o777);
  rewrite(/^error_log\s+[^;]+;/m, `error_log ${tmp}/error.log warn;\npid ${tmp}/nginx.pid;`);
  rewrite(
    /^(\s*)access_log\s+[^;]+;/m,
    [
      `$1log_format bench '$upstream_addr $status $request_method $uri $request_time';`,
      `$1access_log ${tmp}/access.log bench;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((dir) => `$1${dir}_temp_path ${tmp}/${dir}_temp;`),
    ].join('\n'),
  );
  rewrite(/^(\s*)server\s+[^\s{;]+;\n(?:\s*server\s+[^\s{;]+;\n)*/m, `${upstreams.map((address) => `$1server ${address};`).join('\n')}\n`);
  // Bench only: which instance served a request or a WebSocket (101 included, hence always).
  rewrite(/^(\s*)listen\s+80;/m, `$1listen 127.0.0.1:${listenPort};\n$1add_header X-Upstream $upstream_addr always;`);
  return conf;
}

// --- Clients (all through nginx) -----------------------------------------------------------

let baseUrl = '';
const instanceNames = new Map<string, string>(); // upstream address -> A / B
const nameOf = (upstream: string | null | undefined) => (upstream ? (instanceNames.get(upstream) ?? upstream) : '?');

class Jar {
  private cookies = new Map<string, string>();
  get header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1);
      if (value === '' || attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

async function request(jar: Jar | string | undefined, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const cookie = typeof jar === 'string' ? jar : jar?.header;
  const res = await fetch(baseUrl + url, {
    method,
    headers: { origin: baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  if (jar instanceof Jar) jar.take(res);
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, upstream: nameOf(res.headers.get('x-upstream')) };
}

function socketClass(cookie: string, onUpstream: (name: string) => void) {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin: baseUrl } });
      this.on('upgrade', (res) => onUpstream(nameOf(res.headers['x-upstream'] as string | undefined)));
    }
  };
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

type TrpcEvent = { id: string; data: { type: string; seq?: number; text?: string; messageId?: number; message?: { id: number; role: string; content: string; status: string } } };
type WsFrame = { type: string; chatId?: number; message?: { id: number; role: string; content: string; status: string }; messages?: unknown[] };

type Chat = {
  index: number;
  user: { username: string; jar: Jar };
  chatId: number;
  content: string;
  subUpstreams: string[];
  sendUpstream: string;
  wsUpstream: string;
  events: TrpcEvent[];
  frames: WsFrame[];
  replyId?: number;
  completedAt?: number;
  sentAt?: number;
  completed: Promise<void>;
  close: () => void;
  send: () => Promise<void>;
  stored: () => Promise<StoredMessage[]>;
};
type StoredMessage = { id: number; role: string; content: string; status: string };

async function openChat(index: number, user: { username: string; jar: Jar }): Promise<Chat> {
  const cookie = user.jar.header;
  const chat = { index, user, content: `Scale-out chat ${index}: how do I run a better weekly one-to-one?`, subUpstreams: [] as string[], sendUpstream: '?', wsUpstream: '-', events: [] as TrpcEvent[], frames: [] as WsFrame[] } as Chat;
  let lastUpstream = '?';
  const wsClient = createWSClient({ url: `${baseUrl.replace('http', 'ws')}/trpc`, WebSocket: socketClass(cookie, (name) => chat.subUpstreams.push(name)) as never });
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: wsClient }),
        false: httpLink({
          url: `${baseUrl}/trpc`,
          headers: { cookie, origin: baseUrl },
          fetch: async (input, init) => {
            const res = await fetch(input, init);
            lastUpstream = nameOf(res.headers.get('x-upstream'));
            return res;
          },
        }),
      }),
    ],
  });
  chat.chatId = (await client.chats.create.mutate({ title: `scale-out ${index}` })).id;

  let spec: WebSocket | undefined;
  let resolveCompleted!: () => void;
  chat.completed = new Promise<void>((resolve) => (resolveCompleted = resolve));
  let trpcDone = false;
  let wsDone = index >= wsChatCount;
  const settle = () => {
    if (trpcDone && wsDone) {
      chat.completedAt ??= Date.now();
      resolveCompleted();
    }
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chat ${index}: subscription did not start in 30 s`)), 30_000);
    const subscription = client.chats.events.subscribe(
      { chatId: chat.chatId },
      {
        onStarted: () => {
          clearTimeout(timer);
          resolve();
        },
        onData: (event) => {
          const e = event as unknown as TrpcEvent;
          chat.events.push(e);
          if (e.data.type === 'message.completed' && e.data.message?.role === 'assistant') {
            trpcDone = true;
            settle();
          }
        },
        onError: (error) => fail(`chat ${index}: subscription error ${error.message}`),
      },
    );
    chat.close = () => {
      subscription.unsubscribe();
      wsClient.close();
      spec?.close();
    };
    closers.push(() => chat.close());
  });

  // The spec's /ws protocol on its own connection (its own round-robin pick): follow the chat.
  if (index < wsChatCount) {
    const SpecSocket = socketClass(cookie, (name) => (chat.wsUpstream = name));
    spec = new SpecSocket(`${baseUrl.replace('http', 'ws')}/ws`);
    const socket = spec;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chat ${index}: /ws did not answer get_messages in 30 s`)), 30_000);
      socket.on('error', (error) => reject(error));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'get_messages', chatId: chat.chatId })));
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as WsFrame;
        if (frame.type === 'messages_received') {
          clearTimeout(timer);
          resolve();
          return;
        }
        chat.frames.push(frame);
        if (frame.type === 'new_message' && frame.message?.role === 'assistant') {
          wsDone = true;
          settle();
        }
        if (frame.type === 'error') {
          wsDone = true;
          settle();
        }
      });
    });
  }

  chat.send = async () => {
    chat.sentAt = Date.now();
    const { reply } = await client.chats.send.mutate({ chatId: chat.chatId, content: chat.content });
    chat.sendUpstream = lastUpstream;
    chat.replyId = reply.id;
  };
  chat.stored = async () => (await client.chats.messages.query({ chatId: chat.chatId })).items;
  return chat;
}

type Verdict = { lost: number; reordered: number; duplicated: number; mismatched: number; deltas: number };

// Every event of the reply, in order: the user's message, the reply created, deltas 1..n with no
// gap, duplicate or reordering, one completion whose text is the deltas joined, and the same text
// stored in the database and sent on /ws.
function verify(chat: Chat, stored: StoredMessage[] | undefined): Verdict {
  const v: Verdict = { lost: 0, reordered: 0, duplicated: 0, mismatched: 0, deltas: 0 };
  const problem = (kind: keyof Verdict, message: string) => {
    v[kind] += 1;
    if (failures.length < 30) fail(`chat ${chat.index} (subscription on ${chat.subUpstreams.join('>')}, send on ${chat.sendUpstream}): ${message}`);
  };
  const types = chat.events.map((e) => e.data.type);
  const users = chat.events.filter((e) => e.data.type === 'message.created' && e.data.message?.role === 'user');
  if (users.length !== 1 || users[0]!.data.message!.content !== chat.content) problem('lost', `user message.created seen ${users.length} times`);
  const created = chat.events.filter((e) => e.data.type === 'message.created' && e.data.message?.role === 'assistant');
  if (created.length !== 1) problem(created.length ? 'duplicated' : 'lost', `reply message.created seen ${created.length} times`);
  const completed = chat.events.filter((e) => e.data.type === 'message.completed' && e.data.message?.role === 'assistant');
  if (completed.length !== 1) problem(completed.length ? 'duplicated' : 'lost', `reply message.completed seen ${completed.length} times`);
  const final = completed[0]?.data.message;
  if (final && (final.id !== chat.replyId || final.status !== 'complete')) problem('mismatched', `completed reply ${final.id} has status ${final.status}`);

  let text = '';
  let expected = 1;
  for (const e of chat.events) {
    if (e.data.type === 'message.snapshot' && e.data.message?.id === chat.replyId && (e.data.seq ?? 0) >= expected - 1) {
      text = e.data.message!.content; // a resumed subscription: the snapshot covers seq 1..n
      expected = (e.data.seq ?? 0) + 1;
    } else if (e.data.type === 'message.delta' && e.data.messageId === chat.replyId) {
      v.deltas += 1;
      const seq = e.data.seq ?? -1;
      if (seq === expected) {
        text += e.data.text ?? '';
        expected += 1;
      } else if (seq < expected) problem('duplicated', `delta ${seq} again after ${expected - 1}`);
      else {
        problem('lost', `deltas ${expected}..${seq - 1} missing`);
        text += e.data.text ?? '';
        expected = seq + 1;
      }
    }
  }
  const firstDelta = types.indexOf('message.delta');
  const lastDelta = types.lastIndexOf('message.delta');
  const createdAt = chat.events.findIndex((e) => e === created[0]);
  const completedAt = chat.events.findIndex((e) => e === completed[0]);
  if (firstDelta !== -1 && (createdAt > firstDelta || (completedAt !== -1 && completedAt < lastDelta))) problem('reordered', 'a delta came before the reply was created or after it completed');
  if (final && text !== final.content) problem('lost', `deltas joined (${text.length} chars) differ from the completed reply (${final.content.length} chars)`);
  const storedReply = stored?.find((m) => m.id === chat.replyId);
  if (!storedReply) problem('lost', 'reply not stored');
  else if (final && (storedReply.content !== final.content || storedReply.status !== 'complete')) problem('mismatched', `stored reply differs (status ${storedReply.status})`);
  if (final && v.deltas === 0 && final.content) problem('lost', 'no delta at all');

  if (chat.index < wsChatCount) {
    const newMessages = chat.frames.filter((f) => f.type === 'new_message' && f.chatId === chat.chatId);
    const errors = chat.frames.filter((f) => f.type === 'error');
    const userFrames = newMessages.filter((f) => f.message?.role === 'user');
    const replyFrames = newMessages.filter((f) => f.message?.role === 'assistant');
    if (errors.length) problem('mismatched', `/ws error frame: ${JSON.stringify(errors[0])}`);
    if (userFrames.length !== 1 || userFrames[0]!.message!.content !== chat.content) problem('lost', `/ws (on ${chat.wsUpstream}): user new_message seen ${userFrames.length} times`);
    if (replyFrames.length !== 1) problem(replyFrames.length ? 'duplicated' : 'lost', `/ws (on ${chat.wsUpstream}): reply new_message seen ${replyFrames.length} times`);
    else if (final && replyFrames[0]!.message!.content !== final.content) problem('mismatched', `/ws (on ${chat.wsUpstream}): reply text differs from the subscription's`);
    if (newMessages.indexOf(userFrames[0]!) > newMessages.indexOf(replyFrames[0]!)) problem('reordered', '/ws: the reply came before the user message');
  }
  return v;
}

// --- The run --------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(nginxBinary)) throw new Error(`${nginxBinary} not found: apt-get install -y nginx (or set NGINX)`);
  if (compiled && !fs.existsSync(path.join(repoRoot, 'dist/server/main.js'))) throw new Error('BENCH_COMPILED=1 needs a build: npm run build');
  const databaseUrl = await prepareDatabase();
  const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
  const upstreamA = `127.0.0.1:${portA}`;
  const upstreamB = `127.0.0.1:${portB}`;
  instanceNames.set(upstreamA, 'A').set(upstreamB, 'B');
  log(`Scale-out bench: ${chatCount} chats (${wsChatCount} also on /ws) for ${userCount} users, two instances (${compiled ? 'node dist/server/main.js' : 'tsx src/server/main.ts'}) behind nginx, PostgreSQL ${createdDatabase ? `database ${createdDatabase.name} (dropped at the end)` : '(BENCH_DATABASE_URL)'}`);

  // One after the other: the first instance migrates the empty database. (Two instances
  // migrating an empty database at the same moment collide; see bench/results/scale-out.md.)
  const a = startInstance('A', portA, databaseUrl);
  await waitFor(`http://${upstreamA}/readyz`, 'instance A', a);
  const b = startInstance('B', portB, databaseUrl);
  await waitFor(`http://${upstreamB}/readyz`, 'instance B', b);

  const confPath = path.join(tmp, 'nginx.conf');
  fs.writeFileSync(confPath, nginxConfig(nginxPort, [upstreamA, upstreamB]));
  const nginxArgs = ['-p', tmp, '-c', confPath, '-e', path.join(tmp, 'error.log')];
  const check = spawn(nginxBinary, [...nginxArgs, '-t', '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let checkOutput = '';
  check.stderr!.on('data', (chunk) => (checkOutput += chunk));
  if ((await new Promise((resolve) => check.once('exit', resolve))) !== 0) throw new Error(`nginx -t refused the generated configuration:\n${checkOutput}`);
  const nginx = spawn(nginxBinary, [...nginxArgs, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(nginx);
  baseUrl = `http://127.0.0.1:${nginxPort}`;
  await waitFor(`${baseUrl}/readyz`, 'nginx', nginx);
  log(`[${elapsed()}] instances A (${upstreamA}) and B (${upstreamB}) ready; nginx ${nginx.pid} on ${baseUrl}`);

  // 1. Accounts: sign up, then log in (a second session), both through nginx.
  log('\n1. Sessions through nginx');
  const users: Array<{ username: string; jar: Jar }> = [];
  const suffix = Date.now().toString(36);
  const sessionServedBy = new Map<string, number>();
  let spoofedAddressIgnored = true;
  for (let i = 0; i < userCount; i++) {
    const username = `scale_${suffix}_${i}`;
    const signup = new Jar();
    const registered = await request(signup, 'POST', '/api/auth/register', { username, password, fullName: `Scale User ${i}` });
    if (registered.status !== 201) throw new Error(`register ${username}: ${registered.status} ${registered.text}`);
    const jar = new Jar();
    // A forged X-Forwarded-For entry: with TRUST_PROXY=1 the app takes the address nginx appended.
    const login = await request(jar, 'POST', '/api/auth/login', { username, password }, { 'x-forwarded-for': '203.0.113.77' });
    if (login.status !== 200) throw new Error(`login ${username}: ${login.status} ${login.text}`);
    const sessions = await request(jar, 'GET', '/trpc/auth.sessions');
    if (sessions.text.includes('203.0.113.77') || !sessions.text.includes('127.0.0.1')) spoofedAddressIgnored = false;
    // The session answers on whichever instance serves (at least once on each).
    const seen = new Set<string>();
    for (let n = 0; n < 8 && seen.size < 2; n++) {
      for (const j of [signup, jar]) {
        const res = await request(j, 'GET', '/api/auth/session');
        if (res.status !== 200 || res.json?.user?.username !== username) fail(`${username}: session on ${res.upstream} answered ${res.status} ${res.text.slice(0, 100)}`);
        else {
          seen.add(res.upstream);
          sessionServedBy.set(res.upstream, (sessionServedBy.get(res.upstream) ?? 0) + 1);
        }
      }
    }
    if (seen.size < 2) fail(`${username}: the session was only ever served by ${[...seen].join(', ')}`);
    users.push({ username, jar });
  }
  log(`   ${userCount} users signed up and logged in; their sessions answered on A ${sessionServedBy.get('A') ?? 0} times and on B ${sessionServedBy.get('B') ?? 0} times, all as the right user`);
  if (!spoofedAddressIgnored) fail('a forged X-Forwarded-For address became the session address (TRUST_PROXY=1 should take the one nginx appended)');
  else log('   forged X-Forwarded-For ignored: sessions record the address nginx appended (TRUST_PROXY=1)');

  // 2. Chats: subscription and /ws follower first, then every message at once.
  log(`\n2. ${chatCount} chats streaming at once`);
  const chats = await inBatches(Array.from({ length: chatCount }, (_, i) => i), setupConcurrency, (i) => openChat(i, users[i % userCount]!));
  log(`[${elapsed()}] ${chats.length} tRPC subscriptions and ${wsChatCount} /ws followers open through nginx`);
  const streamStart = Date.now();
  const sendResults = await Promise.allSettled(chats.map((chat) => chat.send()));
  sendResults.forEach((result, i) => {
    if (result.status === 'rejected') fail(`chat ${i}: send failed: ${result.reason}`);
  });
  const allDone = Promise.all(chats.map((chat) => chat.completed));
  const finished = await Promise.race([allDone.then(() => true), sleep(120_000).then(() => false)]);
  const streamSeconds = (Date.now() - streamStart) / 1000;
  if (!finished) fail(`${chats.filter((c) => c.completedAt === undefined).length} chats had no complete reply after 120 s`);
  await sleep(300); // anything arriving late (a duplicate) is counted too
  const stored = await inBatches(chats, setupConcurrency, async (chat) => chat.stored().catch(() => undefined));
  const verdicts = chats.map((chat, i) => verify(chat, stored[i]));
  for (const chat of chats) chat.close();

  const total = verdicts.reduce((sum, v) => ({ lost: sum.lost + v.lost, reordered: sum.reordered + v.reordered, duplicated: sum.duplicated + v.duplicated, mismatched: sum.mismatched + v.mismatched, deltas: sum.deltas + v.deltas }), { lost: 0, reordered: 0, duplicated: 0, mismatched: 0, deltas: 0 });
  const durations = chats.filter((c) => c.completedAt && c.sentAt).map((c) => c.completedAt! - c.sentAt!).sort((x, y) => x - y);
  const matrix = new Map<string, { chats: number; deltas: number; problems: number }>();
  chats.forEach((chat, i) => {
    const key = `${chat.subUpstreams.join('>') || '?'}|${chat.sendUpstream}`;
    const cell = matrix.get(key) ?? { chats: 0, deltas: 0, problems: 0 };
    const v = verdicts[i]!;
    cell.chats += 1;
    cell.deltas += v.deltas;
    cell.problems += v.lost + v.reordered + v.duplicated + v.mismatched;
    matrix.set(key, cell);
  });
  log(`   sends served by A ${chats.filter((c) => c.sendUpstream === 'A').length}, B ${chats.filter((c) => c.sendUpstream === 'B').length}; /ws followers on A ${chats.filter((c) => c.wsUpstream === 'A').length}, B ${chats.filter((c) => c.wsUpstream === 'B').length}`);
  log('\n   | subscription on | send on | chats | deltas received | problems |\n   | --- | --- | ---: | ---: | ---: |');
  for (const [key, cell] of [...matrix].sort()) {
    const [sub, send] = key.split('|');
    log(`   | ${sub} | ${send} | ${cell.chats} | ${cell.deltas} | ${cell.problems} |`);
  }
  const crossed = [...matrix].filter(([key]) => {
    const [sub, send] = key.split('|');
    return sub !== send && !sub!.includes('>');
  });
  if (crossed.length < 2) fail(`not both cross-instance pairings were exercised (${crossed.map(([k]) => k).join(', ') || 'none'})`);
  const wsCrossed = chats.filter((c) => c.index < wsChatCount && c.wsUpstream !== c.sendUpstream).length;
  log(`\n   ${total.deltas} deltas in ${chats.length} replies; lost ${total.lost}, reordered ${total.reordered}, duplicated ${total.duplicated}, mismatched ${total.mismatched}`);
  log(`   /ws followers on the other instance than the send: ${wsCrossed} of ${wsChatCount}`);
  if (durations.length) log(`   send to complete reply (every subscriber and follower): p50 ${durations[Math.floor(durations.length / 2)]} ms, max ${durations.at(-1)} ms; all ${chats.length} streams done in ${streamSeconds.toFixed(1)} s`);

  // 3. Logout through one instance ends the session's sockets on the other.
  log('\n3. Logout across instances');
  const owner = users[0]!;
  const jar = new Jar();
  const login = await request(jar, 'POST', '/api/auth/login', { username: owner.username, password });
  if (login.status !== 200) throw new Error(`login for logout: ${login.status}`);
  const cookie = jar.header;
  const sockets: Array<{ path: string; upstream: string; closedAt?: number; code?: number }> = [];
  // Until both kinds of socket are open on both instances (at most 16 sockets).
  for (let n = 0; n < 16 && (n < 6 || new Set(sockets.map((s) => `${s.path} ${s.upstream}`)).size < 4); n++) {
    const entry = { path: n % 4 < 2 ? '/trpc' : '/ws', upstream: '?' } as (typeof sockets)[number];
    const Socket = socketClass(cookie, (name) => (entry.upstream = name));
    const socket = new Socket(`${baseUrl.replace('http', 'ws')}${entry.path}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    closers.push(() => socket.terminate());
    socket.on('close', (code) => {
      entry.closedAt = Date.now();
      entry.code = code;
    });
    sockets.push(entry);
  }
  const logoutSentAt = Date.now();
  const logout = await request(jar, 'POST', '/api/auth/logout', {});
  const logoutAnsweredMs = Date.now() - logoutSentAt;
  if (logout.status !== 200) fail(`logout answered ${logout.status}`);
  for (let i = 0; i < 50 && sockets.some((s) => s.closedAt === undefined); i++) await sleep(100);
  const other = sockets.filter((s) => s.upstream !== logout.upstream);
  const same = sockets.filter((s) => s.upstream === logout.upstream);
  const describe = (list: typeof sockets) => list.map((s) => `${s.path} ${s.closedAt === undefined ? 'still open' : `closed ${s.code} ${s.closedAt - logoutSentAt} ms after the logout was sent`}`).join('; ');
  log(`   logout served by ${logout.upstream} (answered in ${logoutAnsweredMs} ms); ${sockets.length} sockets of that session: ${same.length} on ${logout.upstream}, ${other.length} on the other instance`);
  log(`   on the other instance: ${describe(other) || 'none'}`);
  log(`   on ${logout.upstream}: ${describe(same) || 'none'}`);
  if (!other.length) fail('no socket of the session landed on the other instance');
  else if (new Set(other.map((s) => s.path)).size < 2) log('   (only one kind of socket landed on the other instance this time)');
  if (sockets.some((s) => s.closedAt === undefined)) fail('a socket of the ended session was still open 5 s after logout');
  // The old cookie is refused whichever instance answers; the user's other session still works.
  const refusedBy = new Set<string>();
  for (let n = 0; n < 8 && refusedBy.size < 2; n++) {
    const res = await request(cookie, 'GET', '/api/chats');
    if (res.status !== 401) fail(`the logged-out cookie answered ${res.status} on ${res.upstream}`);
    else refusedBy.add(res.upstream);
  }
  if (refusedBy.size < 2) fail(`the logged-out cookie was only tried on ${[...refusedBy].join(', ')}`);
  const stillIn = await request(owner.jar, 'GET', '/api/chats');
  if (stillIn.status !== 200) fail(`the user's other session answered ${stillIn.status} after the logout`);
  log(`   the logged-out cookie answers 401 on ${[...refusedBy].sort().join(' and ')}; the user's other session still answers 200`);

  // nginx's own record: which instance served how many requests and WebSockets.
  const perUpstream = new Map<string, { requests: number; websockets: number; errors: number }>();
  for (const line of fs.readFileSync(path.join(tmp, 'access.log'), 'utf8').split('\n').filter(Boolean)) {
    const [upstream, status] = line.split(' ');
    const row = perUpstream.get(nameOf(upstream)) ?? { requests: 0, websockets: 0, errors: 0 };
    if (status === '101') row.websockets += 1;
    else row.requests += 1;
    if (Number(status) >= 500) row.errors += 1;
    perUpstream.set(nameOf(upstream), row);
  }
  log(`\nnginx access log (written so far): ${[...perUpstream].sort().map(([name, row]) => `${name}: ${row.requests} requests, ${row.websockets} WebSockets closed, ${row.errors} 5xx`).join('; ')}`);
  for (const [name, row] of perUpstream) if (row.errors) fail(`${row.errors} answers >= 500 from ${name}`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await cleanUp();
  clearTimeout(watchdog);
}
if (failures.length) {
  console.log(`\nScale-out: FAILED (${failures.length} problems) in ${elapsed()}`);
  exitCode = 1;
} else {
  console.log(`\nScale-out: passed, nothing lost, in ${elapsed()}`);
}
process.exit(exitCode);
