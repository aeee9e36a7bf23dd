import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The production start (`npm start` runs `node dist/server/main.js`) is compiled JavaScript, not
// the TypeScript loader the other tests and the e2e servers use. This compiles the server the way
// `npm run build` does (into a scratch directory inside the project, so node_modules is found) and
// starts it on a fresh embedded database: the compiled migrations must be found and run, and the
// app must answer.

const root = path.resolve(import.meta.dirname, '../..');
const scratch = path.join(root, 'test-results', `compiled-start-${process.pid}`);
const dataDir = path.join(scratch, 'data');
let child: ChildProcess | undefined;
let url = '';
let output = '';

beforeAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', path.join(scratch, 'dist')], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}\n${build.stderr}`);
  // A clean environment: the embedded database and offline coach whatever the test run uses.
  child = spawn(process.execPath, [path.join(scratch, 'dist/server/main.js')], {
    cwd: scratch,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const running = /AI Coach is running at (http:\/\/\S+)/.exec(output);
      if (running) {
        clearTimeout(timer);
        resolve(running[1]!);
      }
    };
    child!.stdout!.on('data', read);
    child!.stderr!.on('data', read);
    child!.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the compiled server exited with ${code}:\n${output}`));
    });
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the compiled server (npm start)', () => {
  it('is plain JavaScript, migrations included', () => {
    const compiled = (dir: string) => fs.readdirSync(dir).filter((f) => /\.(js|ts)$/.test(f)).map((f) => f.replace(/\.(js|ts)$/, '')).sort();
    const migrations = path.join(scratch, 'dist/server/db/migrations');
    expect(fs.readdirSync(migrations).every((f) => f.endsWith('.js'))).toBe(true);
    expect(compiled(migrations)).toEqual(compiled(path.join(root, 'src/server/db/migrations')));
    expect(fs.existsSync(path.join(scratch, 'dist/shared'))).toBe(true);
  });

  it('starts on a fresh embedded database, migrated, and answers', async () => {
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    // Demo mode by default: the demo account exists, so every migration ran.
    const session = await fetch(`${url}/api/auth/session`);
    expect(session.status).toBe(200);
    expect(JSON.stringify(await session.json())).toContain('Alex Morgan');
    const chats = await fetch(`${url}/api/chats`);
    expect(chats.status).toBe(200);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
