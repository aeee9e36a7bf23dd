import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MikroORM, type Options } from '@mikro-orm/core';
import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver } from '@mikro-orm/pglite';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { initialDataFile, type DatabaseTarget, type EmbeddedDatabase } from './embedded.js';
import { entities } from './entities/index.js';
import { PgliteWorkerClient } from './pgliteClient.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsPath = path.join(here, 'migrations');
export { databaseTarget, initialDataFile, type DatabaseTarget } from './embedded.js';

/**
 * rate-limiter-flexible's counter table on PostgreSQL (features/limits/rateLimits.ts): made and
 * owned by the library, not by the migrations, so the schema tools and a database move leave it.
 */
export const rateLimitTable = 'rate_limit';

// One options factory for both drivers: PGlite (embedded, default) and PostgreSQL. The server
// passes `pglite`, the embedded database running in its worker thread (pgliteClient.ts); without
// it (the MikroORM CLI) the driver opens PGlite on the calling thread. The client is handed over as
// a function: MikroORM copies its options, and a copy of the client would lose its private state.
export function ormOptions(target: DatabaseTarget, pglite?: PgliteWorkerClient): Partial<Options> {
  const common = {
    entities,
    extensions: [Migrator],
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      glob: '!(*.d).{js,ts}',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    // rate-limiter-flexible creates and owns its counter table on PostgreSQL.
    schemaGenerator: { skipTables: [rateLimitTable] },
    // Each request and each subscription event forks its own EntityManager explicitly.
    allowGlobalContext: false,
    debug: false,
  } satisfies Partial<Options>;
  if (target.kind === 'postgresql') {
    return { ...common, driver: PostgreSqlDriver, clientUrl: target.url } as Partial<Options>;
  }
  fs.mkdirSync(path.dirname(target.directory), { recursive: true });
  return { ...common, driver: PgliteDriver, dbName: target.directory, ...(pglite ? { driverOptions: { pglite: () => pglite } } : {}) } as Partial<Options>;
}

export type OpenDatabase = {
  orm: MikroORM;
  /** Closes the ORM and, for the embedded database, PGlite and its worker thread. */
  close: () => Promise<void>;
};

// The database opened and migrated. The embedded PGlite runs in a worker thread, off the event
// loop that serves requests; `onFailure` is told if that worker fails or exits on its own (every
// database call fails from then on, and /readyz answers 503). `embedded`: the embedded database
// already started on `target` (startEmbeddedDatabase, by main.ts); without it, it is started here
// (its data directory must then be locked by the caller).
export async function openDatabase(
  target: DatabaseTarget,
  options: { onFailure?: (error: Error) => void; embedded?: EmbeddedDatabase } = {},
): Promise<OpenDatabase> {
  if (target.kind === 'postgresql') {
    const orm = await MikroORM.init(ormOptions(target));
    try {
      await migrateAlone(target.url, () => orm.migrator.up());
    } catch (error) {
      await orm.close(true).catch(() => {});
      throw error;
    }
    return { orm, close: () => orm.close(true) };
  }
  let pglite: PgliteWorkerClient;
  if (options.embedded) {
    if (options.embedded.directory !== target.directory) throw new Error(`The embedded database was started on ${options.embedded.directory}, not ${target.directory}`);
    pglite = options.embedded.pglite;
    options.embedded.onFailure((error) => options.onFailure?.(error));
  } else {
    const initialData = fs.existsSync(initialDataFile) ? initialDataFile : undefined;
    pglite = new PgliteWorkerClient(target.directory, { onFailure: options.onFailure, initialData });
  }
  let orm: MikroORM | undefined;
  try {
    orm = await MikroORM.init(ormOptions(target, pglite));
    await orm.migrator.up();
  } catch (error) {
    await orm?.close(true).catch(() => {});
    await pglite.close().catch(() => {});
    throw error;
  }
  const opened = orm;
  return {
    orm: opened,
    close: async () => {
      // The ORM leaves a PGlite it was given open: closing it (and its files) is ours.
      await opened.close(true);
      await pglite.close();
    },
  };
}

// Instances started together on one PostgreSQL would both run the same migrations, and one would
// fail on the other's rows. A session advisory lock, held on a connection of its own, lets one
// migrate while the others wait; they then find nothing left to do.
const migrationLockKey = 72_704_151;

async function migrateAlone(url: string, migrate: () => Promise<unknown>) {
  const lock = new pg.Client({ connectionString: url, application_name: 'ai-coach-migrations' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migrate();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
    await lock.end().catch(() => {});
  }
}
