import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The logger writes standard output asynchronously; these run a real process that logs and then
// ends at once, and read what reached its standard output.
const logModule = path.resolve(import.meta.dirname, 'log.ts');

function runLogging(ending: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-log-'));
  const script = path.join(dir, 'child.ts');
  fs.writeFileSync(
    script,
    `import { createLogger } from ${JSON.stringify(logModule)};
const log = createLogger('info');
for (let i = 0; i < 2000; i++) log.info({ i, user: { password: 'hunter2-secret' }, token: 'tok-secret' }, 'line');
${ending}
`,
  );
  try {
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    const lines = child.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    return { status: child.status, lines, stdout: child.stdout };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('logging to standard output', () => {
  it.each([
    ['process.exit right after logging', 'process.exit(0);'],
    ['an uncaught exception', "setImmediate(() => { throw new Error('boom'); });"],
    ['the end of the event loop', ''],
  ])('writes every line before the process ends: %s', (_case, ending) => {
    const { lines, stdout } = runLogging(ending);

    expect(lines).toHaveLength(2000);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(lines[0]).toMatchObject({ msg: 'line', user: { password: '[redacted]' }, token: '[redacted]' });
    expect(stdout).not.toContain('secret');
  }, 90_000);
});
