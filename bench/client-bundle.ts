// Client bundle budget (issue 10): how much JavaScript does a browser download on a first visit?
//
// Starts the real app in this process (the built client in dist/client served by
// src/server/http/staticAssets.ts exactly as in production: precompressed brotli/gzip copies,
// prerendered public pages; embedded PGlite in a temporary directory, demo mode on, no access
// key), then opens each page below in a fresh headless Chromium context (empty cache, cookies and
// storage: a new visitor) and waits until the network has been idle for 500 ms and the page is
// drawn. Every JavaScript response the page received counts: the entry script, its
// modulepreloads, lazily loaded route chunks and whatever they import. Chunks fetched only later
// (the auth dialog, loaded when a visitor points at Log in or Sign up) are not part of a first
// visit and are not counted.
//
// Sizes: "gzip" is each script gzipped with node:zlib at the default level (the budget's unit,
// independent of what the server happens to send); "sent" is what went over the wire (the
// server's brotli copy when the browser accepts it).
//
// Pages and budgets (gzipped, 1 KB = 1024 bytes):
//   /     the landing page, until its main heading is visible        <= 150 KB
//   /app  a new visitor in demo mode: the chat and the onboarding     <= the stack's floor + 30 KB,
//         dialog ('Welcome to AI Coach') that every first visit gets    in at most 25 scripts
//         (issue 39: the floor is what `npm run bench:stack-floor` measured last, kept in
//         node_modules/.cache/ai-coach-stack-floor.json, or BENCH_STACK_FLOOR_KB, or 147.5 KB, its
//         figure of 2026-11-26; issue 26's 150 KB was under the floor, issue 10's was 250 KB)
// And: none of the chat's own code (routes/_app/app.tsx, features/chat/) is fetched by /, and it
// is fetched by /app (so the check can fail). The build manifest (dist/client/.vite/manifest.json)
// says which files hold it.
//
// Run: npm run build && npm run bench:bundle
// Exits 1 when a budget or the chat check fails, 2 when the client has not been built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';
import pino from 'pino';
import { loadConfig } from '../src/server/config.js';
import { startServer } from '../src/server/server.js';
import { onboardingTexts } from '../src/shared/texts/index.js';

const KB = 1024;
const clientDist = path.resolve(import.meta.dirname, '../dist/client');
const manifestPath = path.join(clientDist, '.vite/manifest.json');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The stack's floor (bench/stack-floor.ts): measured in this run when bench:stack-floor ran before it.
function stackFloor(): { bytes: number; from: string } {
  if (process.env.BENCH_STACK_FLOOR_KB) return { bytes: Number(process.env.BENCH_STACK_FLOOR_KB) * KB, from: 'BENCH_STACK_FLOOR_KB' };
  const file = path.resolve(import.meta.dirname, '../node_modules/.cache/ai-coach-stack-floor.json');
  try {
    const { floorBytes, measuredAt } = JSON.parse(fs.readFileSync(file, 'utf8')) as { floorBytes: number; measuredAt: string };
    return { bytes: floorBytes, from: `bench:stack-floor at ${measuredAt}` };
  } catch {
    return { bytes: 147.5 * KB, from: 'the figure of 2026-11-26 (run npm run bench:stack-floor first to measure it)' };
  }
}
const floor = stackFloor();

type Visit = { path: string; budget: number; maxScripts?: number; drawn: (page: Page) => Promise<void>; chat: 'never' | 'required' };
const visits: Visit[] = [
  {
    path: '/',
    budget: 150 * KB,
    chat: 'never',
    // The landing page's only level-one heading, and React has taken the page over (main.tsx marks
    // it): the heading is prerendered, so without the second wait a busy machine let the bench
    // finish before the boot script had imported the app, and it counted the boot script alone.
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor({ state: 'visible' });
      await page.locator('html[data-hydration="done"]').waitFor({ state: 'attached' });
    },
  },
  {
    path: '/app',
    budget: floor.bytes + 30 * KB,
    maxScripts: 25,
    chat: 'required',
    // A first visit in demo mode: the app shell and the onboarding dialog over it.
    drawn: (page) => page.getByRole('dialog', { name: onboardingTexts.title }).waitFor({ state: 'visible' }),
  },
];

type Row = { file: string; raw: number; gzip: number; sent: number };

/** The built files that hold the chat's own code, from the build manifest. */
function chatFiles(): Set<string> {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; src?: string }>;
  const files = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const source = chunk.src ?? key;
    if (/(^|\/)routes\/_app\/app\.tsx/.test(source) || /(^|\/)features\/chat\//.test(source)) files.add(`/${chunk.file}`);
  }
  return files;
}

async function measure(browser: Browser, baseUrl: string, visit: Visit): Promise<Row[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const scripts = new Map<string, Promise<Row>>();
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() !== 'script' && !url.pathname.endsWith('.js')) return;
      scripts.set(
        url.pathname,
        (async () => {
          const response = await request.response();
          const body = response ? await response.body() : Buffer.alloc(0);
          const sizes = await request.sizes();
          return { file: url.pathname, raw: body.length, gzip: gzipSync(body).length, sent: sizes.responseBodySize };
        })(),
      );
    });
    await page.goto(`${baseUrl}${visit.path}`, { waitUntil: 'networkidle' });
    await visit.drawn(page);
    await page.waitForLoadState('networkidle');
    const rows = await Promise.all(scripts.values());
    return rows.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;

function print(visit: Visit, rows: Row[]) {
  const total = rows.reduce((sum, row) => ({ file: 'TOTAL', raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip, sent: sum.sent + row.sent }), {
    file: 'TOTAL',
    raw: 0,
    gzip: 0,
    sent: 0,
  });
  const width = Math.max(...rows.map((row) => row.file.length), 'TOTAL'.length);
  const line = (file: string, raw: string, gzip: string, sent: string) => `${file.padEnd(width)}  ${raw.padStart(11)}  ${gzip.padStart(11)}  ${sent.padStart(11)}`;
  console.log(`\nJavaScript loaded by a first visit to ${visit.path} (headless Chromium, production server)\n`);
  console.log(line('file', 'raw', 'gzip', 'sent'));
  console.log('-'.repeat(width + 39));
  for (const row of rows) console.log(line(row.file, kb(row.raw), kb(row.gzip), kb(row.sent)));
  console.log('-'.repeat(width + 39));
  console.log(line('TOTAL', kb(total.raw), kb(total.gzip), kb(total.sent)));
  return total.gzip;
}

async function main() {
  if (!fs.existsSync(path.join(clientDist, 'index.html')) || !fs.existsSync(manifestPath)) {
    console.error('dist/client (with .vite/manifest.json) not found: run `npm run build` first.');
    process.exit(2);
  }
  const chat = chatFiles();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-bundle-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_MODE: 'true',
    ACCESS_KEY: '',
    OPENAI_API_KEY: '',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'bench-session-secret-long-enough-0123456789',
  });
  const server = await startServer(config, { log: pino({ level: 'silent' }) });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const failures: string[] = [];
  const summary: string[] = [];
  try {
    for (const visit of visits) {
      const rows = await measure(browser, server.url, visit);
      const total = print(visit, rows);
      const chatLoaded = rows.filter((row) => chat.has(row.file)).map((row) => row.file);
      const scriptBudget = visit.maxScripts ? ` in at most ${visit.maxScripts} files (the stack's floor ${kb(floor.bytes)}, from ${floor.from}, + 30 KB)` : '';
      summary.push(`${visit.path.padEnd(5)} ${kb(total).padStart(10)} gzipped in ${rows.length} files, budget ${kb(visit.budget)}${scriptBudget}`);
      if (total > visit.budget) failures.push(`${visit.path}: ${kb(total)} is over the budget of ${kb(visit.budget)} by ${kb(total - visit.budget)}`);
      if (visit.maxScripts && rows.length > visit.maxScripts) failures.push(`${visit.path}: ${rows.length} scripts, over the budget of ${visit.maxScripts}`);
      if (visit.chat === 'never' && chatLoaded.length > 0) failures.push(`${visit.path} loads the chat's code: ${chatLoaded.join(', ')}`);
      if (visit.chat === 'required' && chatLoaded.length === 0) failures.push(`${visit.path} loaded none of the chat's files (${[...chat].join(', ')})`);
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\n${summary.join('\n')}`);
  if (failures.length > 0) {
    for (const failure of failures) console.error(`FAIL ${failure}`);
    process.exit(1);
  }
  console.log('Within budget; the chat code loads only on /app.');
}

await main();
