// The floor of issue 26's first-visit budget for /app (150 KB of gzipped JavaScript): how much
// the fixed stack alone costs before the app draws anything of its own.
//
// Builds, with the project's Vite and Rolldown in production mode, four throwaway apps, each the
// previous one plus one layer of the stack the handbook fixes, each using only what any /app first
// view must use of that layer:
//   1. React 19 + React DOM (hydrateRoot of one element);
//   2. + TanStack Router (a root route and one child, RouterProvider, a Link);
//   3. + TanStack Query and the tRPC client (QueryClientProvider, httpBatchLink, one useQuery
//      through @trpc/tanstack-react-query's options proxy);
//   4. + Mantine (MantineProvider, AppShell with header and navbar, NavLink, Textarea,
//      ActionIcon, Button, Modal: the chat shell, its composer and the first visit's dialog), and
//      all of Mantine's core stylesheet (CSS, not counted in the JavaScript).
// Then prints the JavaScript a visit to each loads (its entry and their imports), gzipped
// (node:zlib, default level, as bench/client-bundle.ts counts), and issue 39's budget for /app's
// first visit that follows from it (the floor + 30 KB).
// A diagnostic, not a budget check: the floor is written to node_modules/.cache/ai-coach-stack-floor.json,
// where bench/client-bundle.ts takes it for that budget.
//
// With BENCH_LIGHTHOUSE_RUNS=N (say 5), the last app (the whole stack) is then served from a plain
// node:http server (gzipped, as the app's server sends it) and measured N times by Lighthouse's
// mobile preset, as bench/lighthouse.ts measures /app: its main-thread work is the stack's own
// share of issue 26's 2.0 s.
//
// With BENCH_COLD_RUNS=N (say 5), the last app is also opened N times by a cold page load in
// Chromium, as bench/chat-open.ts opens a chat (a new browser context each run, empty cache, its
// window settled first; 1280x800): navigation start until the first frame that shows the answer of
// its one tRPC query, and the longest task until then. The stack's own floor under issue 39's
// cold-open budget for a 300-message chat (300 ms, no task over 50 ms).
//
// Run: npm run bench:stack-floor (npx tsx bench/stack-floor.ts).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { build, loadConfigFromFile, type Plugin, type PluginOption } from 'vite';
import { benchChromiumArgs, loadUntil, settledPage } from './support/coldLoad.js';
import { longestTask } from './support/longestTask.js';

const KB = 1024;
// Issue 39: /app's first visit may fetch the stack's floor and 30 KB more (issue 26's 150 KB was under the floor).
const appShareKb = 30;
/** Where the last floor measured is kept for bench/client-bundle.ts. */
const floorFile = 'node_modules/.cache/ai-coach-stack-floor.json';
const repo = path.resolve(import.meta.dirname, '..');

const layers: Array<{ name: string; imports: string; app: string }> = [
  {
    name: 'React + React DOM',
    imports: ``,
    app: `<main>Coach</main>`,
  },
  {
    name: '+ TanStack Router',
    imports: `import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
const rootRoute = createRootRoute({ component: () => <div><Link to="/app">Chat</Link><Outlet /></div> });
const appRoute = createRoute({ getParentRoute: () => rootRoute, path: '/app', component: () => <Page /> });
const router = createRouter({ routeTree: rootRoute.addChildren([appRoute]) });
function Page() { return <main>Coach</main>; }`,
    app: `<RouterProvider router={router} />`,
  },
  {
    name: '+ TanStack Query + tRPC client',
    imports: `import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
const queryClient = new QueryClient();
const trpc = createTRPCOptionsProxy<any>({ client: createTRPCClient<any>({ links: [httpBatchLink({ url: '/trpc' })] }), queryClient });
const rootRoute = createRootRoute({ component: () => <div><Link to="/app">Chat</Link><Outlet /></div> });
const appRoute = createRoute({ getParentRoute: () => rootRoute, path: '/app', component: () => <Page /> });
const router = createRouter({ routeTree: rootRoute.addChildren([appRoute]) });
function Page() { const chats = useQuery(trpc.chats.list.queryOptions()); return <main>{String(chats.data ?? '')}</main>; }`,
    app: `<QueryClientProvider client={queryClient}><RouterProvider router={router} /></QueryClientProvider>`,
  },
  {
    name: '+ Mantine (the chat shell, composer, first-visit dialog)',
    imports: `import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { ActionIcon, AppShell, Button, MantineProvider, Modal, NavLink, Textarea } from '@mantine/core';
import '@mantine/core/styles.css';
import { useState } from 'react';
const queryClient = new QueryClient();
const trpc = createTRPCOptionsProxy<any>({ client: createTRPCClient<any>({ links: [httpBatchLink({ url: '/trpc' })] }), queryClient });
const rootRoute = createRootRoute({ component: () => (
  <AppShell header={{ height: 56 }} navbar={{ width: 280, breakpoint: 'sm' }}>
    <AppShell.Header>Coach</AppShell.Header>
    <AppShell.Navbar><NavLink component={Link} to="/app" label="Chat" /></AppShell.Navbar>
    <AppShell.Main><Outlet /></AppShell.Main>
  </AppShell>
) });
const appRoute = createRoute({ getParentRoute: () => rootRoute, path: '/app', component: () => <Page /> });
const router = createRouter({ routeTree: rootRoute.addChildren([appRoute]) });
function Page() {
  const chats = useQuery(trpc.chats.list.queryOptions());
  const [open, setOpen] = useState(true);
  return (
    <main data-answered={chats.data === undefined ? undefined : ''}>
      {String(chats.data ?? '')}
      <Textarea autosize placeholder="Message" />
      <ActionIcon aria-label="Send">→</ActionIcon>
      <Modal opened={open} onClose={() => setOpen(false)} title="Welcome"><Button onClick={() => setOpen(false)}>Start</Button></Modal>
    </main>
  );
}`,
    app: `<MantineProvider><QueryClientProvider client={queryClient}><RouterProvider router={router} /></QueryClientProvider></MantineProvider>`,
  },
];

// Inside the project, so the throwaway apps resolve the stack from its node_modules.
// The project's own trims of the stack (vite.config.ts): Mantine's ScrollArea without Floating UI,
// Mantine's useId without its effect, NavLink's nesting loaded on demand, @trpc/client free of side
// effects. The floor is measured with them, as the app is built.
const projectConfig = await loadConfigFromFile({ command: 'build', mode: 'production', isSsrBuild: false }, path.join(repo, 'vite.config.ts'), repo, 'error');
const trims = ['scroll-area-without-floating-ui', 'mantine-use-id-without-effect', 'nav-link-nesting-on-demand'];
const projectPlugins = (projectConfig?.config.plugins ?? []).flat(Number.POSITIVE_INFINITY as 1) as PluginOption[];
const trimPlugins = projectPlugins.filter((plugin): plugin is Plugin => !!plugin && typeof plugin === 'object' && 'name' in plugin && trims.includes(plugin.name));
if (trimPlugins.length !== trims.length) throw new Error(`vite.config.ts no longer has the plugins ${trims.join(', ')}`);
const treeshake = projectConfig?.config.build?.rolldownOptions?.treeshake;

// node_modules/.cache exists only once a tool has made it (not after a fresh `npm ci`).
fs.mkdirSync(path.join(repo, 'node_modules/.cache'), { recursive: true });
const work = fs.mkdtempSync(path.join(repo, 'node_modules/.cache/ai-coach-stack-floor-'));
const results: Array<{ name: string; gzip: number; files: number }> = [];
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 0);
const mainThread: number[] = [];
const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 0);
const coldOpens: Array<{ ms: number; longestTaskMs: number }> = [];
try {
  for (const [i, layer] of layers.entries()) {
    const root = path.join(work, `layer${i + 1}`);
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>');
    fs.writeFileSync(
      path.join(root, 'main.tsx'),
      `import { hydrateRoot } from 'react-dom/client';\n${layer.imports}\nhydrateRoot(document.getElementById('root')!, ${layer.app});\n`,
    );
    const outDir = path.join(root, 'dist');
    await build({
      configFile: false,
      root,
      logLevel: 'silent',
      cacheDir: path.join(root, '.vite'),
      plugins: [react(), ...trimPlugins],
      build: { outDir, emptyOutDir: true, manifest: true, modulePreload: false, sourcemap: false, rolldownOptions: { input: path.join(root, 'index.html'), treeshake } },
    });
    // The scripts a visit loads: the entry and what it imports, not a chunk loaded on demand (the
    // real Collapse of NavLink's nesting, which no layer draws).
    const files = loadedFiles(JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'))).map((file) => path.basename(file));
    const gzip = files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(outDir, 'assets', f))).length, 0);
    results.push({ name: layer.name, gzip, files: files.length });
    if (i === layers.length - 1 && lighthouseRuns > 0) mainThread.push(...(await measureMainThread(outDir, lighthouseRuns)));
    if (i === layers.length - 1 && coldRuns > 0) coldOpens.push(...(await measureColdOpen(outDir, coldRuns)));
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
/** The entry's file and its static imports' files, from a Vite manifest. */
function loadedFiles(manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean }>): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
}

let previous = 0;
for (const r of results) {
  console.log(`${r.name.padEnd(58)} ${(r.gzip / KB).toFixed(1).padStart(6)} KB gzipped (${r.files} file${r.files === 1 ? '' : 's'}; this layer ${((r.gzip - previous) / KB).toFixed(1)} KB)`);
  previous = r.gzip;
}
console.log(`/app's first-visit budget (issue 39): the floor + ${appShareKb} KB = ${((previous + appShareKb * KB) / KB).toFixed(1)} KB, in at most 25 scripts`);
fs.writeFileSync(path.join(repo, floorFile), `${JSON.stringify({ floorBytes: previous, measuredAt: new Date().toISOString() })}\n`);
if (mainThread.length > 0) {
  const sorted = [...mainThread].sort((a, b) => a - b);
  console.log(
    `the whole stack's first visit, Lighthouse mobile main-thread work: ${mainThread.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s; ` +
      `median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} s (issue 26's budget for /app: 2.0 s)`,
  );
}

if (coldOpens.length > 0) {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `the whole stack's cold page load until its answer is drawn: ${coldOpens.map((run) => run.ms.toFixed(0)).join(', ')} ms; median ${median(coldOpens.map((run) => run.ms)).toFixed(0)} ms; ` +
      `longest task ${coldOpens.map((run) => run.longestTaskMs.toFixed(0)).join(', ')} ms, median ${median(coldOpens.map((run) => run.longestTaskMs)).toFixed(1)} ms ` +
      `(issue 39's budget for a 300-message chat: 300 ms, no task over 50 ms)`,
  );
}

/** The built app served as the app's server sends it (gzipped), its one query answered as tRPC answers a batch of one. */
async function serveBuilt(dir: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/trpc/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ result: { data: 'Your chats' } }]));
      return;
    }
    const file = url.pathname.startsWith('/assets/') ? path.join(dir, path.normalize(url.pathname)) : path.join(dir, 'index.html');
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
    res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'cache-control': 'no-cache' }).end(gzipSync(fs.readFileSync(file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function measureColdOpen(dir: string, runs: number): Promise<Array<{ ms: number; longestTaskMs: number }>> {
  const served = await serveBuilt(dir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: benchChromiumArgs });
  const out: Array<{ ms: number; longestTaskMs: number }> = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await settledPage(context);
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
      const ms = await loadUntil(page, `${served.url}/app`, `document.querySelector('main[data-answered]') !== null`);
      out.push({ ms, longestTaskMs: longestTask(await browser.stopTracing()) });
      await context.close();
    }
  } finally {
    await browser.close();
    served.close();
  }
  return out;
}

async function measureMainThread(dir: string, runs: number): Promise<number[]> {
  const served = await serveBuilt(dir);
  const port = new URL(served.url).port;
  const times: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
        logLevel: 'silent',
      });
      try {
        const result = await lighthouse(`http://127.0.0.1:${port}/app`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        const value = result?.lhr.audits['mainthread-work-breakdown']?.numericValue;
        if (typeof value !== 'number') throw new Error('Lighthouse reported no main-thread work');
        times.push(value);
      } finally {
        chrome.kill();
      }
    }
  } finally {
    served.close();
  }
  return times;
}
