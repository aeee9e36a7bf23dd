// Client bundle budget: how much JavaScript does a browser download for a first visit to `/`?
//
// Loads the built client (dist/client) in headless Chromium from a local static server, waits
// for the landing page to render, and sums the gzipped size of every JavaScript file the page
// requested. Asking the browser (instead of following imports in the build output) counts
// exactly what a visitor gets: the entry script, its modulepreloads and the lazily loaded
// route chunk for `/`, and nothing that is only fetched later (such as the auth dialog).
//
// Run: npx vite build && npx tsx bench/client-bundle.ts
// Exits 1 when the total is over the budget.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const budgetBytes = 200 * 1024;
const clientDist = path.resolve(import.meta.dirname, '../dist/client');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

// Serves dist/client like the app server does: files as they are, anything else gets index.html
// (client-side routes). API calls made by the page simply 404, which the landing page never needs.
function startStaticServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const candidate = path.join(clientDist, pathname);
    const insideDist = candidate.startsWith(clientDist + path.sep);
    if (insideDist && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      res.writeHead(200, { 'Content-Type': contentTypes[path.extname(candidate)] ?? 'application/octet-stream' });
      fs.createReadStream(candidate).pipe(res);
      return;
    }
    if (pathname.startsWith('/trpc') || pathname.startsWith('/api') || path.extname(pathname)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': contentTypes['.html'] });
    fs.createReadStream(path.join(clientDist, 'index.html')).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

type Row = { file: string; raw: number; gzip: number };

async function measureFirstVisit(baseUrl: string): Promise<Row[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const scripts = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (response.ok() && (response.request().resourceType() === 'script' || url.pathname.endsWith('.js'))) {
        scripts.set(url.pathname, response.body());
      }
    });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    // The landing page is rendered once its only level-one heading is on screen.
    await page.getByRole('heading', { level: 1 }).waitFor({ state: 'visible' });
    const rows: Row[] = [];
    for (const [file, body] of scripts) {
      const bytes = await body;
      rows.push({ file, raw: bytes.length, gzip: gzipSync(bytes).length });
    }
    return rows.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

async function main() {
  if (!fs.existsSync(path.join(clientDist, 'index.html'))) {
    console.error('dist/client/index.html not found: run `npx vite build` first.');
    process.exit(2);
  }
  const server = await startStaticServer();
  const { port } = server.address() as AddressInfo;
  let rows: Row[];
  try {
    rows = await measureFirstVisit(`http://127.0.0.1:${port}`);
  } finally {
    server.close();
  }

  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  const width = Math.max(...rows.map((row) => row.file.length), 'TOTAL'.length);
  const line = (file: string, raw: string, gzip: string) => `${file.padEnd(width)}  ${raw.padStart(12)}  ${gzip.padStart(12)}`;

  console.log('JavaScript loaded by a first visit to / (headless Chromium, dist/client)\n');
  console.log(line('file', 'raw', 'gzip'));
  console.log('-'.repeat(width + 28));
  for (const row of rows) console.log(line(row.file, kb(row.raw), kb(row.gzip)));
  console.log('-'.repeat(width + 28));
  console.log(line('TOTAL', kb(total.raw), kb(total.gzip)));
  console.log(`\nBudget: ${kb(budgetBytes)} gzipped. ${rows.length} files.`);

  if (total.gzip > budgetBytes) {
    console.error(`Over budget by ${kb(total.gzip - budgetBytes)}.`);
    process.exit(1);
  }
  console.log(`Within budget (${kb(budgetBytes - total.gzip)} to spare).`);
}

await main();
