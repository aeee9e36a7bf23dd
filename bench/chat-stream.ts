// Chat streaming overhead: how much the server adds between a token leaving the model and
// reaching a subscribed client, at 1, 50 and 200 concurrent streams.
//
// Three processes, so that no two roles share an event loop: this one runs the fake model (it
// records when each token is written), a child runs the real server (dist/server/main.js on a fresh
// embedded database, with the real openai SDK pointed at the fake), and another child runs the
// clients (one tRPC WebSocket subscription per stream). Both ends read process.hrtime (the
// system-wide monotonic clock), so the difference is the time spent in the SDK, our bus, tRPC,
// the WebSocket and the client's parsing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeOpenAI } from '../test/fakes/openai.js';
import { productionNodeArgs } from './support/productionStart.js';

// BENCH_DATABASE_URL runs the server on PostgreSQL instead of the embedded PGlite.
// The fake model holds every reply until all streams are set up, which on a loaded machine can
// take longer than the server's stall timeout (60 s): the server gets 600 s here.
const levels = (process.env.BENCH_STREAMS ?? '1,50,200').split(',').map(Number);
const tokensPerReply = Number(process.env.BENCH_TOKENS ?? 50);
const tokenDelayMs = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 40);
const budget = { p50: 5, p99: 25 };
const port = 4700 + Math.floor(Math.random() * 200);

const fake = await startFakeOpenAI();
// Every token names its stream and position, so both ends can be matched exactly.
const replyFor = (request: { messages?: Array<{ content: unknown }> }) => {
  const stream = /bench stream (\d+)/.exec(String(request.messages?.at(-1)?.content ?? ''))?.[1] ?? 'x';
  return Array.from({ length: tokensPerReply }, (_, i) => `s${stream}t${i}`).join(' ');
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-'));
// BENCH_PROFILE_DIR writes a CPU profile of the server (node --cpu-prof) there.
const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
// The server runs as `npm start` runs it in production: the compiled build (`npm run build`, or
// `node scripts/build-server.mjs` for the server alone) with the start script's node flags.
// BENCH_TSX=1 runs the sources through tsx instead (no start flags), which also turns on source
// maps: every Error created (web streams make some at the end of each model response) then costs
// a source-map lookup that production does not pay.
const useTsx = Boolean(process.env.BENCH_TSX);
if (!useTsx && !fs.existsSync('dist/server/main.js')) {
  console.error('dist/server/main.js is missing: run `npm run build` (or `node scripts/build-server.mjs`) first, or set BENCH_TSX=1');
  process.exit(2);
}
const extraFlags = [...profile, ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])];
const server = spawn(process.execPath, useTsx ? [...extraFlags, '--import', 'tsx', 'src/server/main.ts'] : productionNodeArgs('.', extraFlags), {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '', LOG_LEVEL: 'warn', OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: fake.url, DEMO_MODE: 'true', RATE_LIMIT_REGISTER_PER_HOUR: '0', RATE_LIMIT_CHAT_PER_MINUTE: '0', MODEL_DAILY_QUOTA: '0', MODEL_STALL_TIMEOUT_SECONDS: '600' },
  stdio: ['ignore', process.env.BENCH_SERVER_FLAGS ? 'inherit' : 'ignore', 'inherit'],
});
const baseUrl = `http://127.0.0.1:${port}`;

async function waitReady() {
  // A first start creates the database: up to 2 minutes on this shared machine under load.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

function runClients(streams: number): Promise<Array<{ stream: number; received: Array<{ seq: number; text: string; atNs: string }>; final: string; status: string }>> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/chat-stream-client.ts', baseUrl, String(streams)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`clients exited with ${code}`));
    });
  });
}

// User + system time of the server process from /proc (Linux; NaN elsewhere), in ms.
function serverCpuMs(): number {
  try {
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

type Row = { streams: number; tokens: number; p50: number; p90: number; p99: number; max: number; lost: number; reordered: number };
const rows: Row[] = [];
let ok = true;
try {
  await waitReady();
  for (const streams of levels) {
    fake.reset();
    // All streams are set up (chat, subscription, message, request to the model) before the
    // model starts writing; then they stream concurrently, their phases spread over one interval.
    fake.behave({ reply: replyFor, tokenDelayMs, startTogether: streams, startTogetherDelayMs: Number(process.env.BENCH_SETTLE_MS ?? 500) });
    // The server's CPU time (all its threads) while the replies stream: from the first token the
    // model writes until every client has its complete reply. Less sensitive to other work on the
    // machine than latency.
    let cpuAtFirstToken: number | undefined;
    fake.onToken = () => {
      cpuAtFirstToken ??= serverCpuMs();
    };
    const results = await runClients(streams);
    const streamingCpuMs = cpuAtFirstToken === undefined ? undefined : serverCpuMs() - cpuAtFirstToken;
    const writtenAt = new Map(fake.tokenWrites.map((write) => [write.text.trim(), write.writtenAtNs]));
    const latencies: number[] = [];
    // Where in a reply the slow tokens are: its first 5, its last 5, or between.
    const head: number[] = [];
    const middle: number[] = [];
    const tail: number[] = [];
    const last: number[] = []; // the reply's last token alone: it arrives with the end of the model's response
    let lost = 0;
    let reordered = 0;
    for (const result of results) {
      const expected = Array.from({ length: tokensPerReply }, (_, i) => `s${result.stream}t${i}`);
      const got = result.received.map((r) => r.text.trim());
      lost += expected.filter((token) => !got.includes(token)).length;
      if (result.final.replace(/\s+/g, ' ').trim() !== expected.join(' ') || result.status !== 'complete') lost += 1;
      result.received.forEach((r, i) => {
        if (r.seq !== i + 1 || got[i] !== expected[i]) reordered += 1;
        const sent = writtenAt.get(r.text.trim());
        if (sent !== undefined) {
          const ms = Number(BigInt(r.atNs) - sent) / 1e6;
          latencies.push(ms);
          (i < 5 ? head : i >= tokensPerReply - 5 ? tail : middle).push(ms);
          if (i === tokensPerReply - 1) last.push(ms);
        }
      });
    }
    latencies.sort((a, b) => a - b);
    const row: Row = {
      streams,
      tokens: latencies.length,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.at(-1)!,
      lost,
      reordered,
    };
    rows.push(row);
    const p99Of = (values: number[]) => (values.length ? percentile([...values].sort((a, b) => a - b), 99).toFixed(2) : '-');
    console.log(`  p99 by position in the reply: first 5 tokens ${p99Of(head)} ms, middle ${p99Of(middle)} ms, last 5 ${p99Of(tail)} ms (the last one: p50 ${last.length ? percentile([...last].sort((a, b) => a - b), 50).toFixed(2) : '-'} ms, p99 ${p99Of(last)} ms)`);
    if (streamingCpuMs !== undefined && Number.isFinite(streamingCpuMs)) console.log(`  server CPU while streaming: ${streamingCpuMs.toFixed(0)} ms (${((streamingCpuMs * 1000) / row.tokens).toFixed(0)} µs a token)`);
    console.log(`${streams} streams: ${row.tokens} tokens, p50 ${row.p50.toFixed(2)} ms, p90 ${row.p90.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms, max ${row.max.toFixed(2)} ms, lost ${lost}, reordered ${reordered}`);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log('\n| streams | tokens | p50 ms | p90 ms | p99 ms | max ms | lost | reordered |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.streams} | ${r.tokens} | ${r.p50.toFixed(2)} | ${r.p90.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(2)} | ${r.lost} | ${r.reordered} |`);
const top = rows.find((r) => r.streams === 200);
if (top) {
  ok = top.p50 < budget.p50 && top.p99 < budget.p99;
  console.log(`\nBudget at 200 streams: p50 < ${budget.p50} ms and p99 < ${budget.p99} ms: ${ok ? 'met' : 'NOT met'}`);
}
if (rows.some((r) => r.lost || r.reordered)) ok = false;
process.exit(ok ? 0 : 1);
