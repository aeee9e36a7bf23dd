import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from './dataDirLock.js';
import { databaseTarget, type DatabaseTarget } from './embedded.js';
import { formatCounts, moveDatabase, MoveRefusedError } from './moveDatabase.js';

// `npm run db:move -- --to postgresql://user@host:5432/db` copies DATA_DIR's embedded database
// into that empty PostgreSQL database; `--from postgresql://...` copies one back into DATA_DIR's
// (new, empty) embedded database. Stop the server first: the data directory's lock refuses a move
// while it runs. See moveDatabase.ts and docs/deployment.md ("Moving from the embedded database to PostgreSQL").
//
// The password is never taken from the command line (it would stay in the shell's history and be
// visible to every user of the machine in the process list): it comes from DB_MOVE_PASSWORD (or
// PGPASSWORD), or is asked for without echo when the move runs in a terminal. Whatever is printed
// (progress, errors) has every form of it masked: as given, percent-encoded, and in URLs.

const usage =
  'Usage: DB_MOVE_PASSWORD=... npm run db:move -- --to postgresql://user@host:5432/database\n' +
  '   or: DB_MOVE_PASSWORD=... npm run db:move -- --from postgresql://user@host:5432/database\n' +
  'Without DB_MOVE_PASSWORD (or PGPASSWORD) the password is asked for when run in a terminal.';

function postgresUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MoveArgumentError(`${flag} must be a postgresql:// URL.\n${usage}`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') throw new MoveArgumentError(`${flag} must be a postgresql:// URL.\n${usage}`);
  if (url.password || [...url.searchParams.keys()].some((key) => key.toLowerCase() === 'password')) {
    throw new MoveArgumentError(`${flag} must not hold a password: the command line is kept in the shell's history and shown to other users. Give it in DB_MOVE_PASSWORD, or leave it out to be asked.\n${usage}`);
  }
  return value;
}

/** The password from DB_MOVE_PASSWORD or PGPASSWORD, else asked in a terminal without echo; undefined when there is none. */
async function passwordOf(): Promise<string | undefined> {
  const given = process.env.DB_MOVE_PASSWORD || process.env.PGPASSWORD;
  if (given) return given;
  if (!process.stdin.isTTY) return undefined;
  process.stdout.write('PostgreSQL password (leave empty for none): ');
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          return resolve(typed || undefined);
        }
        if (char === '\u0003') process.exit(130);
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    stdin.on('data', onData);
  });
}

/** Every printed line passes here: the password, as given and percent-encoded, never appears. */
let secrets: string[] = [];
function mask(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

class MoveArgumentError extends Error {}

function hidePassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return mask(parsed.toString());
}

const say = (line: string) => console.log(mask(line));

async function main() {
  const { values } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(usage);
  if (Boolean(values.to) === Boolean(values.from)) throw new MoveArgumentError(usage);
  const config = loadConfig();
  const embedded = databaseTarget({ dataDir: config.dataDir, databaseUrl: undefined });
  const url = new URL(postgresUrl((values.to ?? values.from)!, values.to ? '--to' : '--from'));
  const password = await passwordOf();
  if (password) {
    url.password = password;
    secrets = [...new Set([password, encodeURIComponent(password), url.password])].filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  }
  const other: DatabaseTarget = { kind: 'postgresql', url: url.toString() };
  const [from, to] = values.to ? [embedded, other] : [other, embedded];
  const describe = (side: DatabaseTarget) => (side.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : hidePassword(side.url));
  say(`Moving ${describe(from)} to ${describe(to)}`);
  const counts = await moveDatabase({ from, to, dataDir: config.dataDir, say, onTableCopied: (table, rows) => say(`  ${table}: ${rows} rows`) });
  say(`\n${formatCounts(counts)}\n\nDone: every table has the same number of rows in both databases.`);
  const generated = ['session-secret', 'token-key'].filter((file) => fs.existsSync(path.join(config.dataDir, file)));
  if (values.to) {
    say(
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
    console.error(mask(known ? (error as Error).message : `The move failed and nothing was moved (the target was left as it was): ${error instanceof Error ? error.message : String(error)}`));
    process.exit(1);
  },
);
