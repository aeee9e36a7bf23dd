import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { ormOptions } from '../../src/server/db/orm.js';
import { PgliteWorkerClient } from '../../src/server/db/pgliteClient.js';
import setUpDatabaseTemplate from '../../test/setup/databaseTemplate.js';

// The migrated database every evaluation server starts from (test/helpers/database.ts copies it).
// Creating a PGlite cluster in WebAssembly and migrating it is most of a run's fixed cost (5 to 8 s
// on a quiet 2-core machine, 80 s and more on a loaded one); after `npm run build` (CI builds
// before the evaluation) the build's migrated image is unpacked instead, and the migrations then
// find nothing, or only what is newer than the build, left to do. Without a build, or on
// PostgreSQL (DATABASE_URL), the server tests' own template set-up makes it.
const buildImage = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist/server/db/pglite-initial.tar.gz');

export async function migratedTemplate(): Promise<() => unknown> {
  if (process.env.DATABASE_URL || !fs.existsSync(buildImage)) return setUpDatabaseTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-eval-template-'));
  const directory = path.join(dir, 'pglite');
  const pglite = new PgliteWorkerClient(directory, { initialData: buildImage });
  try {
    const orm = await MikroORM.init(ormOptions({ kind: 'pglite', directory }, pglite));
    try {
      await orm.migrator.up();
    } finally {
      await orm.close(true);
    }
  } finally {
    await pglite.close();
  }
  process.env.TEST_PGLITE_TEMPLATE = directory;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
