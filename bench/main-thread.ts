// What a first visit to a page does on Chromium's main thread (issue 26: `/app`'s main-thread
// work). A diagnostic, not a budget check: Lighthouse (bench/lighthouse.ts) judges the budget;
// this says where the time goes, which Lighthouse's "Other" does not.
//
// It starts the built server as `npm start` does (fresh embedded database, demo mode), then for
// each run opens the page in a fresh Chromium context (a new visitor, empty cache) with a phone's
// viewport and the CPU slowed 4x as Lighthouse's mobile preset simulates, records a trace through
// the DevTools protocol until the page is drawn ('Welcome to AI Coach' on /app; on
// a public page: React has taken it over) and the network has been idle, and prints:
// - the main thread's top-level tasks: how many, their time, and the time over 50 ms (blocking);
// - the tasks by kind (the first traced event inside each: a script's response data, React's
//   MessageChannel slices, timers, microtask checkpoints...), by count and time;
// - the traced events by self time (time not inside another traced event);
// - with BENCH_CPU_PROFILE=1, also V8's sampled CPU profile over the same visit: self time by
//   script (the built chunk's name without its hash) and by function, where "(program)" is the
//   browser's own work outside JavaScript (parsing, style, layout, loading, task overhead).
// Times are of the slowed CPU, like Lighthouse's. Medians over the runs.
//
//   npm run build && npx tsx bench/main-thread.ts                 # /app, 3 runs
//   BENCH_PAGE=/ BENCH_RUNS=5 npx tsx bench/main-thread.ts
//   BENCH_ONBOARDING_SEEN=1 npx tsx bench/main-thread.ts          # /app without the first visit's dialog
//   BENCH_CPU_PROFILE=1 npx tsx bench/main-thread.ts              # and where JavaScript's time goes
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { onboardingTexts } from '../src/shared/texts/index.js';
import { freePort } from './support/freePort.js';
import { productionNodeArgs } from './support/productionStart.js';

const root = path.resolve(import.meta.dirname, '..');
const page = process.env.BENCH_PAGE ?? '/app';
const runs = Number(process.env.BENCH_RUNS ?? 3);
const onboardingSeen = process.env.BENCH_ONBOARDING_SEEN === '1';
const cpuProfile = process.env.BENCH_CPU_PROFILE === '1';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } };
type Slice = TraceEvent & { dur: number; inner: number };
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } };
const jsByScript = new Map<string, number>();
const jsByFunction = new Map<string, number>();

if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Build first: npm run build');
  process.exit(2);
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-main-thread-'));
const server = spawn(process.execPath, productionNodeArgs(root), {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let waited = 0; ; waited += 100) {
  if (waited > 60_000) throw new Error('the server did not start within 60 s');
  const ready = await fetch(`${base}/readyz`).then((res) => res.ok).catch(() => false);
  if (ready) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const browser = await chromium.launch({ executablePath: chromiumPath });
const perRun: Array<{ tasks: number; taskMs: number; blockingMs: number; kinds: Map<string, { n: number; ms: number }>; self: Map<string, number> }> = [];
try {
  console.log(`${page}${onboardingSeen ? ' (onboarding seen)' : ''}: ${runs} first visits, CPU 4x slower; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (let run = 1; run <= runs; run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    const tab = await context.newPage();
    if (onboardingSeen) await tab.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (message) => void events.push(...(message.value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    if (cpuProfile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink,loading,toplevel', transferMode: 'ReportEvents' });
    await tab.goto(`${base}${page}`);
    if (page === '/app' && !onboardingSeen) await tab.getByRole('dialog', { name: onboardingTexts.title }).waitFor({ timeout: 60_000 });
    else if (page === '/app') await tab.locator('main').first().waitFor({ timeout: 60_000 });
    // A prerendered public page: once React has taken it over.
    else await tab.locator('html[data-hydration="done"]').waitFor({ timeout: 60_000, state: 'attached' });
    await tab.waitForLoadState('networkidle');
    await cdp.send('Tracing.end');
    await complete;
    if (cpuProfile) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
      addSamples(profile);
    }
    await context.close();
    const result = analyse(events);
    perRun.push(result);
    console.log(`  run ${run}: ${result.tasks} tasks, ${result.taskMs.toFixed(0)} ms, ${result.blockingMs.toFixed(0)} ms over 50 ms`);
  }
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const medianOf = <T>(pick: (run: (typeof perRun)[number]) => Map<string, T>, value: (item: T) => number) => {
  const names = new Set(perRun.flatMap((run) => [...pick(run).keys()]));
  return [...names].map((name) => [name, median(perRun.map((run) => { const item = pick(run).get(name); return item === undefined ? 0 : value(item); }))] as const).sort((a, b) => b[1] - a[1]);
};
console.log(`\nmedian: ${median(perRun.map((r) => r.tasks))} tasks, ${median(perRun.map((r) => r.taskMs)).toFixed(0)} ms, ${median(perRun.map((r) => r.blockingMs)).toFixed(0)} ms over 50 ms`);
console.log('\ntasks by kind (median count, median ms):');
const counts = new Map(medianOf((run) => run.kinds, (kind) => kind.n));
for (const [name, ms] of medianOf((run) => run.kinds, (kind) => kind.ms).slice(0, 12)) console.log(`  ${ms.toFixed(0).padStart(6)} ms ${String(counts.get(name) ?? 0).padStart(5)} tasks  ${name}`);
console.log('\nevents by self time (median ms):');
for (const [name, ms] of medianOf((run) => run.self, (ms) => ms).slice(0, 15)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);

if (cpuProfile) {
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('\nJavaScript profile, self time by script (mean ms a visit):');
  for (const [name, ms] of top(jsByScript, 20)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  console.log('\nJavaScript profile, self time by function (mean ms a visit; names are minified):');
  for (const [name, ms] of top(jsByFunction, 25)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}

/** Adds one visit's sampled CPU profile to the per-script and per-function self times. */
function addSamples(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000 / runs;
    const script = frame.url ? frame.url.replace(/^.*\/assets\//, '').replace(/-[\w-]{8}\.js$/, '') : frame.functionName;
    jsByScript.set(script, (jsByScript.get(script) ?? 0) + ms);
    const fn = `${frame.functionName || '(anonymous)'} in ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    jsByFunction.set(fn, (jsByFunction.get(fn) ?? 0) + ms);
  });
}

/** The renderer's main thread: its top-level tasks, their kinds, and each event's self time. */
function analyse(events: TraceEvent[]) {
  const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const slices: Slice[] = events
    .filter((e): e is TraceEvent & { dur: number } => e.ph === 'X' && typeof e.dur === 'number' && mainThreads.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ ...e, inner: 0 }))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Nesting by time: each slice's direct children add to its `inner` time.
  const stack: Slice[] = [];
  const tasks: Slice[] = [];
  const kindOf = new Map<Slice, string>();
  const wrappers = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
  for (const slice of slices) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur <= slice.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.inner += slice.dur;
    else tasks.push(slice);
    const task = stack[0];
    if (task && !kindOf.has(task) && !wrappers.has(slice.name)) kindOf.set(task, slice.name);
    stack.push(slice);
  }
  const kinds = new Map<string, { n: number; ms: number }>();
  for (const task of tasks) {
    const kind = kinds.get(kindOf.get(task) ?? '(nothing traced inside)') ?? { n: 0, ms: 0 };
    kind.n += 1;
    kind.ms += task.dur / 1000;
    kinds.set(kindOf.get(task) ?? '(nothing traced inside)', kind);
  }
  const self = new Map<string, number>();
  for (const slice of slices) self.set(slice.name, (self.get(slice.name) ?? 0) + (slice.dur - slice.inner) / 1000);
  return {
    tasks: tasks.length,
    taskMs: tasks.reduce((sum, task) => sum + task.dur, 0) / 1000,
    blockingMs: tasks.reduce((sum, task) => sum + Math.max(0, task.dur - 50_000), 0) / 1000,
    kinds,
    self,
  };
}
