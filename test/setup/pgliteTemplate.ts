import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { PgliteConnection } from '@mikro-orm/pglite';
import { ormOptions } from '../../src/server/db/orm.js';
import { installJobQueue } from '../../src/server/jobs/jobQueue.js';

// Vitest globalSetup: creates one migrated PGlite cluster before the workers start. Every test
// server on the embedded database then starts from a copy of it (freshDatabase), instead of
// creating a cluster in WebAssembly and running every migration again: about 1 s instead of 5 to
// 8 s a server on this 2-core machine, and the suite starts dozens. The copy is the same cluster
// the app would make itself; tests that need a first start on an empty directory make their own.
export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-template-'));
  const directory = path.join(dir, 'pglite');
  const orm = await MikroORM.init(ormOptions({ kind: 'pglite', directory }));
  try {
    await orm.migrator.up();
    // The job queue's schema too (pg-boss), as the build's first-start image has it.
    await installJobQueue(await (orm.em.getConnection() as unknown as PgliteConnection).getNativeClient());
  } finally {
    await orm.close(true);
  }
  process.env.TEST_PGLITE_TEMPLATE = directory;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
