import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from './dataDirLock.js';
import { databaseTarget, type DatabaseTarget } from './embedded.js';
import { formatCounts, moveDatabase, MoveRefusedError } from './moveDatabase.js';

// `npm run db:move -- --to postgresql://user:pass@host:5432/db` copies DATA_DIR's embedded
// database into that empty PostgreSQL database; `--from postgresql://...` copies one back into
// DATA_DIR's (new, empty) embedded database. Stop the server first: the data directory's lock
// refuses a move while it runs. See moveDatabase.ts and docs/deployment.md ("Moving from the embedded database to PostgreSQL").

const usage = 'Usage: npm run db:move -- --to postgresql://user:password@host:5432/database\n   or: npm run db:move -- --from postgresql://user:password@host:5432/database';

function postgresUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MoveArgumentError(`${flag} must be a postgresql:// URL.\n${usage}`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') throw new MoveArgumentError(`${flag} must be a postgresql:// URL.\n${usage}`);
  return value;
}

class MoveArgumentError extends Error {}

function hidePassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function main() {
  const { values } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(usage);
  if (Boolean(values.to) === Boolean(values.from)) throw new MoveArgumentError(usage);
  const config = loadConfig();
  const embedded = databaseTarget({ dataDir: config.dataDir, databaseUrl: undefined });
  const other: DatabaseTarget = { kind: 'postgresql', url: postgresUrl((values.to ?? values.from)!, values.to ? '--to' : '--from') };
  const [from, to] = values.to ? [embedded, other] : [other, embedded];
  const describe = (side: DatabaseTarget) => (side.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : hidePassword(side.url));
  console.log(`Moving ${describe(from)} to ${describe(to)}`);
  const counts = await moveDatabase({ from, to, dataDir: config.dataDir, say: (line) => console.log(line), onTableCopied: (table, rows) => console.log(`  ${table}: ${rows} rows`) });
  console.log(`\n${formatCounts(counts)}\n\nDone: every table has the same number of rows in both databases.`);
  const generated = ['session-secret', 'token-key'].filter((file) => fs.existsSync(path.join(config.dataDir, file)));
  if (values.to) {
    console.log(
      `\nStart the server with DATABASE_URL=${hidePassword(other.url)} and the same SESSION_SECRET and TOKEN_ENCRYPTION_KEY` +
        (generated.length
          ? `.\nThis server generated ${generated.join(' and ')} in ${config.dataDir}: keep that DATA_DIR, or set SESSION_SECRET and TOKEN_ENCRYPTION_KEY to the contents of those files.`
          : '.') +
        `\nThe embedded database in ${config.dataDir} was left as it was: keep it as a backup until you are sure.`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const known = error instanceof MoveRefusedError || error instanceof DataDirLockedError || error instanceof ConfigError || error instanceof MoveArgumentError;
    console.error(known ? (error as Error).message : `The move failed and nothing was moved (the target was left as it was): ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
