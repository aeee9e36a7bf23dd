// /goals with 100 goals and 10,000 check-ins (issue 12): budget 300 ms to render.
//
// Starts the real app (built client, embedded PGlite in a temporary directory), signs up a user,
// writes 100 goals with 4 key results each and 10,000 check-ins (25 per key result, over the last
// 12 weeks) straight into the database, then measures in Chromium:
//   - server: GET /api/goals (all goals, key results and check-ins as JSON), median of 20;
//   - open:   a full page load of /goals until every goal's title is on the page (navigation start
//             to rendered), median of 5;
//   - switch: from Settings, a click on the sidebar's Goals until every title is on the page (the
//             in-app navigation a user makes), median of 5. The budget applies to this one.
//
// Run: npm run build && npx tsx bench/goals.ts     Exits 1 when over budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import pino from 'pino';
import { loadConfig } from '../src/server/config.js';
import { startServer } from '../src/server/server.js';

const budgetMs = 300;
const goals = 100;
const keyResultsPerGoal = 4;
const checkInsPerKeyResult = 25;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(path.resolve(import.meta.dirname, '../dist/client/index.html'))) {
  console.error('The client is not built: run `npm run build` first.');
  process.exit(2);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-goals-'));
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', DEMO_MODE: 'false', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-session-secret-long-enough-0123456789', RATE_LIMIT_REGISTER_PER_HOUR: '0' });
const server = await startServer(config, { log: pino({ level: 'silent' }) });
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
try {
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ username: 'bench_goals', password: 'bench-password', fullName: 'Bench Person' }),
  });
  const userId = ((await registered.json()) as { user: { id: number } }).user.id;
  const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');

  // Seed with three statements (generate_series), as a long-lived account would have accumulated.
  const connection = server.deps.orm.em.fork().getConnection();
  await connection.execute(
    `insert into goal (owner_id, framework, title, due_date, cadence, next_reminder_at, created_at, updated_at)
     select ?, (array['SMART','OKR','GROW'])[1 + g % 3], 'Bench goal ' || g, to_char(now() + (g || ' days')::interval, 'YYYY-MM-DD'),
            'weekly', now() + interval '7 days', now() - interval '84 days', now()
     from generate_series(1, ?) g`,
    [userId, goals],
  );
  await connection.execute(
    `insert into key_result (goal_id, position, title, start, target, unit)
     select g.id, k, 'Key result ' || k, 0, 100, '%' from goal g, generate_series(0, ?) k where g.owner_id = ?`,
    [keyResultsPerGoal - 1, userId],
  );
  await connection.execute(
    `insert into check_in (key_result_id, value, note, created_at)
     select kr.id, c * 4, null, now() - ((84 - c * 3) || ' days')::interval
     from key_result kr join goal g on g.id = kr.goal_id, generate_series(1, ?) c where g.owner_id = ?`,
    [checkInsPerKeyResult, userId],
  );
  const [{ count }] = await connection.execute<Array<{ count: string }>>(`select count(*) from check_in c join key_result k on k.id = c.key_result_id join goal g on g.id = k.goal_id where g.owner_id = ?`, [userId]);
  console.log(`seeded ${goals} goals, ${goals * keyResultsPerGoal} key results, ${count} check-ins`);

  const serverTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 21; i++) {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/goals`, { headers: { cookie } });
    bytes = (await res.arrayBuffer()).byteLength;
    if (i > 0) serverTimes.push(performance.now() - started);
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url: server.url })));
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const page = await context.newPage();
  const allTitlesShown = (expected: number) => {
    const shown = new Set<string>();
    for (const el of document.querySelectorAll('h2, h3, h4, p, span, div')) {
      if (el.childElementCount === 0 && el.textContent?.startsWith('Bench goal ')) shown.add(el.textContent);
    }
    return shown.size >= expected;
  };

  const openTimes: number[] = [];
  for (let i = 0; i < 6; i++) {
    await page.goto(`${server.url}/goals`);
    await page.waitForFunction(allTitlesShown, goals, { timeout: 30_000, polling: 'raf' });
    const elapsed = await page.evaluate(() => performance.now());
    if (i > 0) openTimes.push(elapsed);
  }

  const switchTimes: number[] = [];
  for (let i = 0; i < 6; i++) {
    await page.goto(`${server.url}/settings`);
    await page.getByRole('link', { name: 'Goals' }).first().waitFor();
    const started = await page.evaluate(() => performance.now());
    await page.getByRole('link', { name: 'Goals' }).first().click();
    await page.waitForFunction(allTitlesShown, goals, { timeout: 30_000, polling: 'raf' });
    const ended = await page.evaluate(() => performance.now());
    if (i > 0) switchTimes.push(ended - started);
  }

  const rows = [
    ['server: GET /api/goals', median(serverTimes), `${(bytes / 1024).toFixed(0)} KB JSON`],
    ['open: load /goals until all titles show', median(openTimes), 'navigation start to rendered'],
    ['switch: Settings -> Goals until all titles show', median(switchTimes), `budget ${budgetMs} ms`],
  ] as const;
  for (const [name, ms, note] of rows) console.log(`${name.padEnd(48)} ${ms.toFixed(0).padStart(6)} ms   ${note}`);
  const over = median(switchTimes) > budgetMs;
  console.log(over ? `OVER BUDGET: ${median(switchTimes).toFixed(0)} ms > ${budgetMs} ms` : `within budget (${budgetMs} ms)`);
  process.exitCode = over ? 1 : 0;
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
