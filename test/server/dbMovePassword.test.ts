import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run db:move` takes the PostgreSQL password from the environment (DB_MOVE_PASSWORD or
// PGPASSWORD) or a prompt, never from the command line, and masks every form of it in what it
// prints. Runs without a PostgreSQL server: the target is a closed port.
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-move-pw-'));

function moveCli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/db/moveCli.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...env },
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('db:move and the PostgreSQL password', { timeout: 180_000 }, () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a password on the command line, in the URL or as a password= parameter, without printing it', () => {
    for (const url of ['postgresql://mover:S3cret-pw%21@127.0.0.1:1/coach', 'postgresql://mover@127.0.0.1:1/coach?password=S3cret-pw%21', 'postgres://mover@127.0.0.1:1/coach?sslmode=disable&PASSWORD=S3cret-pw%21']) {
      const run = moveCli(['--to', url]);
      expect(run.status).toBe(1);
      expect(run.output).toMatch(/must not hold a password/);
      expect(run.output).toMatch(/DB_MOVE_PASSWORD/);
      expect(run.output).not.toMatch(/S3cret-pw/);
    }
  });

  it('takes the password from DB_MOVE_PASSWORD and masks it, plain and percent-encoded, in everything it prints', () => {
    const password = 'p@ss word/1:x';
    const run = moveCli(['--to', 'postgresql://mover@127.0.0.1:1/coach'], { DB_MOVE_PASSWORD: password });
    expect(run.status).toBe(1);
    // It did try to connect, as mover, with a password.
    expect(run.output).toContain('postgresql://mover:***@127.0.0.1:1/coach');
    for (const form of [password, encodeURIComponent(password), 'p%40ss%20word%2F1', 'p@ss']) expect(run.output).not.toContain(form);
  });
});
