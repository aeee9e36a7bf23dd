// Starts the end-to-end suite's servers and fakes side by side, as Playwright's one webServer entry
// (playwright.config.ts lists them in E2E_SERVERS). Playwright starts its webServer entries one
// after another, each followed by polling its URL at growing intervals; twenty of them took most
// of a minute before the first test. Here a few start at once, each is polled every 100 ms, and
// this process answers GET /ready on its own port once all of them answer their URL.
//
// A server that exits before it is ready stops the run with its name and exit code. The servers
// are this process's children, in its process group, so they end with it (Playwright ends the
// group when the run is over); on SIGTERM or SIGINT it ends them itself. Plain JavaScript: loaded
// by node without a TypeScript loader.
import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';

const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]');
const port = Number(process.env.E2E_LAUNCHER_PORT);
const atOnce = Number(process.env.E2E_LAUNCHER_PARALLEL ?? 4);
if (!servers.length || !Number.isInteger(port)) {
  console.error('launchServers: E2E_SERVERS and E2E_LAUNCHER_PORT must be set (playwright.config.ts sets them)');
  process.exit(2);
}

const children = new Set();
let ready = false;
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  }, 3_000).unref();
  if (!children.size) process.exit(code);
}
process.on('SIGTERM', () => stopAll(0));
process.on('SIGINT', () => stopAll(0));

/** One GET of `url`: true on 2xx, 3xx or 400 to 403, the statuses Playwright's own check takes as up. */
function answers(url) {
  return new Promise((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.get(url, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
      res.resume();
      const status = res.statusCode ?? 500;
      resolve((status >= 200 && status < 400) || (status >= 400 && status <= 403));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

async function start(server) {
  const started = Date.now();
  const child = spawn(server.command, { shell: true, env: { ...process.env, E2E_SERVERS: '', ...server.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  child.stderr.on('data', (data) => {
    for (const line of data.toString().split('\n')) if (line.trim()) process.stderr.write(`[${server.name}] ${line}\n`);
  });
  let exited = null;
  child.on('exit', (code, signal) => {
    children.delete(child);
    exited = signal ?? code;
    if (!stopping) {
      console.error(`launchServers: ${server.name} (${server.command}) exited ${ready ? 'during the run' : 'before it was ready'}: ${exited}`);
      stopAll(1);
    }
  });
  const deadline = started + server.timeout;
  while (!(await answers(server.url))) {
    if (exited !== null || stopping) return;
    if (Date.now() > deadline) {
      console.error(`launchServers: ${server.name} did not answer ${server.url} within ${server.timeout / 1000} s`);
      stopAll(1);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (process.env.E2E_LAUNCHER_VERBOSE) console.error(`launchServers: ${server.name} ready in ${Date.now() - started} ms`);
}

// The launcher's own readiness: 200 once every server answers, 503 before.
http
  .createServer((req, res) => {
    res.writeHead(ready && req.url === '/ready' ? 200 : 503, { 'content-type': 'text/plain' });
    res.end(ready ? 'ready' : 'starting');
  })
  .listen(port, '127.0.0.1');

const queue = [...servers];
await Promise.all(
  Array.from({ length: Math.min(atOnce, queue.length) }, async () => {
    while (queue.length && !stopping) await start(queue.shift());
  }),
);
if (!stopping) ready = true;
