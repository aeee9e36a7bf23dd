import fs from 'node:fs';
import path from 'node:path';

/**
 * The arguments `npm start` gives node (package.json's start script, `exec node ARGS`): the
 * production server's V8 flags and entry, so that a bench starts the server exactly as production
 * does. Flags passed in `extra` come first (a profiler, --trace-gc).
 */
export function productionNodeArgs(root: string, extra: string[] = []): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /^(?:exec\s+)?node\s+(.+)$/.exec(pkg.scripts.start.trim());
  if (!match) throw new Error(`package.json's start script is not \`exec node ...\`: ${pkg.scripts.start}`);
  const args = match[1]!.split(/\s+/);
  if (args.at(-1) !== 'dist/server/main.js') throw new Error(`package.json's start script does not end with dist/server/main.js: ${pkg.scripts.start}`);
  return [...extra, ...args];
}
