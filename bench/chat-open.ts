// A 300-message chat (issue 10, issue 26): it opens in 300 ms or less, streams three replies with no long task
// over 50 ms, and keeps a bounded DOM (a virtualised message list).
//
// Builds nothing itself (npm run bench:chat-open builds first). Starts the production server
// (`node dist/server/main.js`, a fresh embedded PGlite in a temporary DATA_DIR) against the fake
// model server (test/fakes/openai.ts, the Chat Completions wire format), signs up a user and makes
// a chat of 300 messages through the app's own API: 150 questions of varied length, each answered
// by the model with a reply of varied length and shape (a line, paragraphs, lists, a table, code).
// Then, in Chromium (/usr/bin/chromium, 1280x800), with a Chromium performance trace recorded
// around each phase (browser.startTracing; the longest task is the longest RunTask on the page's
// main thread):
//   - open (load):  a cold page load of /app?chat={id} (a new browser context each run: empty
//                   cache, issue 39), navigation start until the newest message is drawn and in
//                   view, and the longest task until then (median of 5);
//   - open (click): from another chat, a click on the chat in the sidebar until the newest message
//                   is drawn and in view (median of 5), and the longest task from the click until
//                   500 ms after it was in view;
//   - scroll:       scrolling to the top, page after page, until all 300 messages are loaded; the
//                   message nodes in the page are counted after every step;
//   - stream:       three messages sent, each reply streamed word by word (about 130 words, 15 ms
//                   apart) until it is complete; the longest task over the three.
// Budgets: open (click and load) within 300 ms (issue 26; issue 10 had 500 ms); no task over 50 ms while opening (click; the
// median run of the cold loads) and while streaming; at most 60 message nodes in the page. Exits 1 when one is missed.
//
// BENCH_TRACE_DIR keeps the traces (Chrome trace JSON, open in DevTools' Performance panel), with
// the JavaScript profiler's samples unless BENCH_NO_PROFILER=1 (they slow the page by about 15 %).
// BENCH_WINDOW_SETTLE_MS (default 1000): how long a new context's window settles before the cold
// load (bench/support/coldLoad.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeChatRequest } from '../test/fakes/openai.js';
import { freePort } from './support/freePort.js';
import { benchChromiumArgs, loadUntil, settledPage } from './support/coldLoad.js';
import { longestTaskOf } from './support/longestTask.js';

const budget = { openMs: 300, longTaskMs: 50, messageNodes: 60 };
const questions = 150; // 300 messages
const runs = 5;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const traceDir = process.env.BENCH_TRACE_DIR;
const root = path.resolve(import.meta.dirname, '..');

if (!fs.existsSync(path.join(root, 'dist/client/index.html')) || !fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Not built: run `npm run build` first (npm run bench:chat-open does).');
  process.exit(2);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// ---- Content of varied length and shape, the same on every run ----------------------------------

const words = 'team goal feedback plan priority meeting review progress delegate focus outcome habit energy stakeholder manager quarter milestone conversation growth skill'.split(' ');
function sentence(seed: number, length: number): string {
  const out: string[] = [];
  for (let i = 0; i < length; i++) out.push(words[(seed * 7 + i * 13) % words.length]!);
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}
function paragraph(seed: number, sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => sentence(seed + i, 6 + ((seed + i) % 14))).join(' ');
}

function question(n: number): string {
  switch (n % 5) {
    case 0:
      return `(#${n}) Thanks!`;
    case 1:
      return `(#${n}) ${sentence(n, 12)}`;
    case 2:
      return `(#${n}) ${paragraph(n, 4)}`;
    case 3:
      return `(#${n}) ${paragraph(n, 2)}\n\n${paragraph(n + 3, 3)}`;
    default:
      return `(#${n}) ${sentence(n, 5)}`;
  }
}

function reply(n: number): string {
  const tag = `(reply ${n} of ${questions})`;
  switch (n % 6) {
    case 0:
      return `${sentence(n, 10)} ${tag}`;
    case 1:
      return `${paragraph(n, 5)}\n\n${paragraph(n + 1, 4)}\n\n${paragraph(n + 2, 3)} ${tag}`;
    case 2:
      return `Here is a plan:\n\n${Array.from({ length: 6 }, (_, i) => `- **${words[(n + i) % words.length]}**: ${sentence(n + i, 9)}`).join('\n')}\n\n${paragraph(n, 2)} ${tag}`;
    case 3:
      return `${paragraph(n, 2)}\n\n${Array.from({ length: 7 }, (_, i) => `${i + 1}. ${sentence(n + i, 8)}`).join('\n')}\n\n${tag}`;
    case 4:
      return `| Week | Focus | Outcome |\n| --- | --- | --- |\n${Array.from({ length: 5 }, (_, i) => `| ${i + 1} | ${words[(n + i) % words.length]} | ${sentence(n + i, 5)} |`).join('\n')}\n\n${paragraph(n, 3)} ${tag}`;
    default:
      return `${paragraph(n, 2)}\n\n\`\`\`\nagenda:\n  - ${words[n % words.length]}\n  - ${words[(n + 3) % words.length]}\n\`\`\`\n\n> ${sentence(n, 12)}\n\n${paragraph(n + 5, 3)} ${tag}`;
  }
}

const streamedReply = (k: number) =>
  `Streamed answer ${k}. ${paragraph(k, 3)}\n\n${Array.from({ length: 6 }, (_, i) => `- **Step ${i + 1}**: ${sentence(k + i, 9)}`).join('\n')}\n\n${paragraph(k + 2, 4)} (streamed ${k} done)`;

// ---- Servers -----------------------------------------------------------------------------------

const fake = await startFakeOpenAI();
const numberOf = (request: FakeChatRequest) => Number(/\(#(\d+)\)/.exec(String(request.messages?.at(-1)?.content ?? ''))?.[1] ?? 0);
fake.behave({ reply: (request) => reply(numberOf(request)) });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-chat-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    DEMO_MODE: 'false',
    SESSION_SECRET: 'bench-session-secret-long-enough-0123456789',
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: fake.url,
    RATE_LIMIT_REGISTER_PER_HOUR: '0',
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    MODEL_DAILY_QUOTA: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let browser: Browser | undefined;
// Bounded: whatever hangs, the run ends, and the server and the browser go with it.
const watchdog = setTimeout(() => {
  console.error('bench timed out');
  void cleanUp().finally(() => process.exit(2));
}, Number(process.env.BENCH_TIMEOUT_S ?? 600) * 1000);

async function cleanUp() {
  clearTimeout(watchdog);
  await browser?.close().catch(() => undefined);
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function waitReady() {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

// ---- The API, as the app's clients use it ------------------------------------------------------

let cookie = '';
async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function ask(chatId: number, content: string) {
  await api('POST', `/api/chats/${chatId}/messages`, { content });
  for (let i = 0; i < 500; i++) {
    const { messages } = await api<{ messages: Array<{ status: string; role: string }> }>('GET', `/api/chats/${chatId}/messages?limit=2`);
    if (messages.at(-1)?.role === 'assistant' && messages.at(-1)?.status !== 'streaming') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('a seeded reply did not finish');
}

// ---- What the page shows -----------------------------------------------------------------------

// The newest message is drawn and in the conversation's view. A string, not a function: the
// TypeScript runner would wrap a function's inner functions with a helper the page does not have.
const lastShownCheck = `(() => {
  const log = document.querySelector('[role="log"]');
  if (!log) return false;
  const scroller = log.parentElement;
  const last = [...log.querySelectorAll('article')].find((a) => a.textContent.includes(${JSON.stringify(`(reply ${questions} of ${questions})`)}));
  if (!last) return false;
  const view = scroller.getBoundingClientRect();
  const box = last.getBoundingClientRect();
  return box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
})()`;
// Waits for it by animation frame (page.waitForFunction would evaluate a string, which the app's
// Content-Security-Policy forbids).
async function waitShown(page: Page, timeoutMs = 30_000) {
  const shown = page.evaluate(`new Promise((resolve) => {
    const check = () => (${lastShownCheck} ? resolve(true) : requestAnimationFrame(check));
    check();
  })`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the newest message was not shown')), timeoutMs)));
  try {
    await Promise.race([shown, late]);
  } finally {
    clearTimeout(timer);
  }
}
async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the page');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const messageNodes = (page: Page) => page.evaluate(() => document.querySelectorAll('[role="log"] article').length);

// With BENCH_TRACE_DIR the traces also carry the JavaScript profiler's samples (call stacks in
// DevTools), which add some overhead of their own.
const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', ...(traceDir && !process.env.BENCH_NO_PROFILER ? ['disabled-by-default-v8.cpu_profiler'] : [])];
async function traced<T>(page: Page, name: string, work: () => Promise<T>): Promise<{ result: T; longestMs: number; over50: number }> {
  await browser!.startTracing(page, { categories: traceCategories, screenshots: false });
  const result = await work();
  const trace = await browser!.stopTracing();
  if (traceDir) {
    fs.mkdirSync(traceDir, { recursive: true });
    fs.writeFileSync(path.join(traceDir, `${name}.json`), trace);
  }
  const { longestMs, over: over50 } = longestTaskOf(trace, budget.longTaskMs);
  return { result, longestMs, over50 };
}

try {
  await waitReady();
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ username: 'bench_chat', password: 'bench-password', fullName: 'Bench Person' }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');

  const seedStarted = performance.now();
  const other = await api<{ id: number }>('POST', '/api/chats', {});
  await ask(other.id, '(#0) A short chat to start from');
  const chat = await api<{ id: number }>('POST', '/api/chats', {});
  for (let n = 1; n <= questions; n++) await ask(chat.id, question(n));
  const { messages: stored } = await api<{ messages: unknown[] }>('GET', `/api/chats/${chat.id}/messages?limit=100`);
  console.log(`seeded a chat of ${questions * 2} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (last page ${stored.length})`);

  browser = await chromium.launch({ executablePath: chromiumPath, args: benchChromiumArgs });
  // A signed-in browser of the user's: a new context is an empty cache (a cold load).
  const signedIn = async () => {
    const fresh = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    await fresh.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url: baseUrl })));
    await fresh.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
    return fresh;
  };

  // Open by a full page load, cold (issue 39): a new browser context each run, so nothing is
  // cached, as on the first visit of a day (the app's scripts are cached for a year after it; the
  // warm reloads this measured before were a better case than a user meets first). Timed by the
  // page's clock from navigation start to the first frame with the newest message in view; the
  // longest task from navigation start until then.
  const loadTimes: number[] = [];
  const loadTasks: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cold = await signedIn();
    const coldPage = await settledPage(cold);
    const { result: elapsed, longestMs } = await traced(coldPage, `open-load-${i}`, () => loadUntil(coldPage, `${baseUrl}/app?chat=${chat.id}`, lastShownCheck));
    loadTimes.push(elapsed);
    loadTasks.push(longestMs);
    await cold.close();
  }

  const context = await signedIn();
  const page = await context.newPage();

  // Open by a click in the sidebar, from the other chat (a fresh page load each time, so nothing
  // of the big chat is cached).
  const clickTimes: number[] = [];
  const clickTasks: number[] = [];
  for (let i = 0; i <= runs; i++) {
    await page.goto(`${baseUrl}/app?chat=${other.id}`);
    await page.locator(`a[href*="chat=${chat.id}"]`).first().waitFor();
    await page.waitForTimeout(300);
    const { result: elapsed, longestMs } = await traced(page, `open-click-${i}`, async () => {
      const ms = (await page.evaluate(`(async () => {
        const started = performance.now();
        document.querySelector('a[href*="chat=${chat.id}"]').click();
        const at = await new Promise((resolve) => {
          const check = () => (${lastShownCheck} ? resolve(performance.now() - started) : requestAnimationFrame(check));
          check();
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        return at;
      })()`)) as number;
      return ms;
    });
    if (i > 0) {
      clickTimes.push(elapsed);
      clickTasks.push(longestMs);
    }
  }
  const nodesAtOpen = await messageNodes(page);

  // Scroll to the top until every message is loaded, counting the message nodes on the way.
  const scroll = await traced(page, 'scroll-up', async () => {
    let most = 0;
    for (let step = 0; step < 400; step++) {
      most = Math.max(most, await messageNodes(page));
      const done = await page.evaluate((greeting) => {
        const log = document.querySelector('[role="log"]')!;
        log.parentElement!.scrollBy(0, -600);
        return log.textContent!.includes(greeting) && log.parentElement!.scrollTop === 0;
      }, "Hello! I'm your AI Coach.");
      if (done) break;
      await page.waitForTimeout(50);
    }
    return Math.max(most, await messageNodes(page));
  });
  const loadedAll = await page.evaluate(() => document.querySelector('[role="log"]')!.textContent!.includes('(#1)'));

  // Back to the newest message (the End key in the conversation), then three streamed replies.
  await page.locator('[role="log"]').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await waitShown(page, 10_000);
  fake.behave({ reply: (request) => streamedReply(numberOf(request)), tokenDelayMs: 15 });
  const input = page.getByPlaceholder('Message your AI Coach...');
  const stream = await traced(page, 'stream', async () => {
    let most = 0;
    for (let k = 1; k <= 3; k++) {
      await input.fill(`(#${k}) ${sentence(k, 10)}`);
      await input.press('Enter');
      // Polled from here every 100 ms with one cheap check (Playwright's own text search would
      // add its work to the page's main thread, inside the measurement).
      await until(() => page.evaluate((marker) => {
        const log = document.querySelector('[role="log"]')!;
        return log.querySelector('[aria-busy="true"]') === null && log.textContent!.includes(marker);
      }, `(streamed ${k} done)`), 30_000);
      most = Math.max(most, await messageNodes(page));
    }
    // The newest reply is in view: the list followed the stream.
    const followed = await page.evaluate(() => {
      const scroller = document.querySelector('[role="log"]')!.parentElement!;
      return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    });
    return { most, followed };
  });

  const rows: Array<[string, string, string]> = [
    ['open: cold page load until the newest message is in view', `${median(loadTimes).toFixed(0)} ms`, `median of ${runs}; ${loadTimes.map((t) => t.toFixed(0)).join(', ')}`],
    ['open: cold page load, longest task until then', `${median(loadTasks).toFixed(1)} ms`, `median of ${runs}; per run ${loadTasks.map((t) => t.toFixed(0)).join(', ')}`],
    ['open: sidebar click until the newest message is in view', `${median(clickTimes).toFixed(0)} ms`, `median of ${runs}; ${clickTimes.map((t) => t.toFixed(0)).join(', ')}`],
    ['open: longest task (click to 500 ms after shown)', `${Math.max(...clickTasks).toFixed(1)} ms`, `per run ${clickTasks.map((t) => t.toFixed(0)).join(', ')}`],
    ['open: message nodes in the page', `${nodesAtOpen}`, ''],
    ['scroll to the top: most message nodes in the page', `${scroll.result}`, `all ${questions * 2} loaded: ${loadedAll}`],
    ['scroll to the top: longest task', `${scroll.longestMs.toFixed(1)} ms`, `${scroll.over50} over ${budget.longTaskMs} ms`],
    ['stream 3 replies: longest task', `${stream.longestMs.toFixed(1)} ms`, `${stream.over50} over ${budget.longTaskMs} ms`],
    ['stream 3 replies: most message nodes in the page', `${stream.result.most}`, `stayed at the bottom: ${stream.result.followed}`],
  ];
  for (const [name, value, note] of rows) console.log(`${name.padEnd(58)} ${value.padStart(10)}   ${note}`);

  const missed: string[] = [];
  if (median(loadTimes) > budget.openMs) missed.push(`open by page load ${median(loadTimes).toFixed(0)} ms > ${budget.openMs} ms`);
  if (median(loadTasks) > budget.longTaskMs) missed.push(`a task of ${median(loadTasks).toFixed(0)} ms while opening by a cold page load (median run)`);
  if (median(clickTimes) > budget.openMs) missed.push(`open by click ${median(clickTimes).toFixed(0)} ms > ${budget.openMs} ms`);
  if (Math.max(...clickTasks) > budget.longTaskMs) missed.push(`a task of ${Math.max(...clickTasks).toFixed(0)} ms while opening`);
  if (stream.longestMs > budget.longTaskMs) missed.push(`a task of ${stream.longestMs.toFixed(0)} ms while streaming`);
  const mostNodes = Math.max(nodesAtOpen, scroll.result, stream.result.most);
  if (mostNodes > budget.messageNodes) missed.push(`${mostNodes} message nodes > ${budget.messageNodes}`);
  if (!loadedAll) missed.push('scrolling up did not reach the first message');
  if (!stream.result.followed) missed.push('the list did not follow the streamed reply');
  console.log(missed.length ? `OVER BUDGET: ${missed.join('; ')}` : 'within budget');
  process.exitCode = missed.length ? 1 : 0;
} catch (error) {
  console.error(error);
  process.exitCode = 2;
} finally {
  await cleanUp();
}
