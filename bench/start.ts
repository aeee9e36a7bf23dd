// Production start to /readyz (issue 10): budget under 3 s.
//
// Starts the built server as `npm start` does (`node dist/server/main.js`, embedded PGlite, the
// default set-up) and times from the spawn to the first /readyz 200, in two cases, alternated so
// that the machine's state weighs on both alike:
//   - existing: a DATA_DIR that already holds the cluster (every start after the first);
//   - empty:    a fresh DATA_DIR (the first start: the cluster is unpacked from the build's image,
//               the demo account seeded).
// Each start is stopped with SIGTERM and waited for before the next. Prints every time and the
// median of each case; exits 1 when a median is over budget.
//
// Run: npm run build && npx tsx bench/start.ts
// BENCH_RUNS (default 5) starts of each case. BENCH_PROFILE_DIR=dir writes a CPU profile of each
// start (node --cpu-prof; the process is stopped as soon as /readyz answers).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/freePort.js';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const profileDir = process.env.BENCH_PROFILE_DIR;
const budgetMs = 3000;

async function startOnce(dataDir: string): Promise<number> {
  const port = await freePort();
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const started = performance.now();
  const child = spawn('node', [...profile, 'dist/server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode}) before /readyz answered`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return performance.now() - started;
      } catch {}
      if (performance.now() - started > 120_000) throw new Error('/readyz did not answer within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-start-'));
try {
  const existing = path.join(scratch, 'existing');
  await startOnce(existing); // creates the cluster the "existing" starts open
  const times: Record<'existing' | 'empty', number[]> = { existing: [], empty: [] };
  for (let run = 0; run < runs; run++) {
    times.existing.push(await startOnce(existing));
    times.empty.push(await startOnce(path.join(scratch, `empty-${run}`)));
  }
  let ok = true;
  for (const [name, values] of Object.entries(times)) {
    const m = median(values);
    ok &&= m < budgetMs;
    console.log(`${name.padEnd(8)} ${values.map((v) => `${(v / 1000).toFixed(2)} s`).join(', ')}; median ${(m / 1000).toFixed(2)} s`);
  }
  console.log(ok ? `within budget (median under ${budgetMs / 1000} s)` : `OVER BUDGET (median under ${budgetMs / 1000} s)`);
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
