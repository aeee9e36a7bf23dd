import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MikroORM, type Options } from '@mikro-orm/core';
import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver } from '@mikro-orm/pglite';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { entities } from './entities/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsPath = path.join(here, 'migrations');

export type DatabaseTarget =
  | { kind: 'postgresql'; url: string }
  | { kind: 'pglite'; directory: string };

export function databaseTarget(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgresql', url: config.databaseUrl }
    : { kind: 'pglite', directory: path.join(config.dataDir, 'pglite') };
}

// One options factory for both drivers: PGlite (embedded, default) and PostgreSQL.
export function ormOptions(target: DatabaseTarget): Partial<Options> {
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
    schemaGenerator: { skipTables: ['rate_limit'] },
    // Each request and each subscription event forks its own EntityManager explicitly.
    allowGlobalContext: false,
    debug: false,
  } satisfies Partial<Options>;
  if (target.kind === 'postgresql') {
    return { ...common, driver: PostgreSqlDriver, clientUrl: target.url } as Partial<Options>;
  }
  fs.mkdirSync(path.dirname(target.directory), { recursive: true });
  return { ...common, driver: PgliteDriver, dbName: target.directory } as Partial<Options>;
}

export async function openDatabase(target: DatabaseTarget): Promise<MikroORM> {
  const orm = await MikroORM.init(ormOptions(target));
  if (target.kind === 'postgresql') await migrateAlone(target.url, () => orm.migrator.up());
  else await orm.migrator.up();
  return orm;
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
