import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { PgliteConnection } from '@mikro-orm/pglite';
import { type DatabaseTarget } from '../../src/server/db/embedded.js';
import { ormOptions } from '../../src/server/db/orm.js';
import { withAdmin } from '../helpers/database.js';
import { installJobQueue, installJobQueueAt } from '../../src/server/jobs/jobQueue.js';

// Vitest globalSetup: migrates one database before the workers start, and every test server then
// starts from a copy of it (freshDatabase) instead of running every migration again.
// - PGlite: a migrated cluster in a directory, copied per server: about 1 s instead of 5 to 8 s
//   (creating a cluster in WebAssembly, then the migrations) on this 2-core machine.
// - PostgreSQL (DATABASE_URL): a migrated database used as the template of each test database
//   (`create database … template …`): 0.2 s instead of 1 to 2 s of migrations a server, over a
//   hundred servers a run.
// The copy is what the app would make itself; a test that needs a first start on an empty
// database asks freshDatabase({ empty: true }).
export default async function setup() {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) return postgresTemplate(serverUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-template-'));
  const directory = path.join(dir, 'pglite');
  await migrate({ kind: 'pglite', directory });
  process.env.TEST_PGLITE_TEMPLATE = directory;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(serverUrl: string) {
  const name = `ai_coach_template_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Closed before any copy: a template must have no open connection.
  await migrate({ kind: 'postgresql', url: url.toString() });
  process.env.TEST_PG_TEMPLATE = name;
  return () => withAdmin(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

async function migrate(target: DatabaseTarget) {
  const orm = await MikroORM.init(ormOptions(target));
  try {
    await orm.migrator.up();
    // The job queue's schema too (pg-boss), as the build's first-start image has it.
    if (target.kind === 'pglite') {
      await installJobQueue(await (orm.em.getConnection() as unknown as PgliteConnection).getNativeClient());
    } else {
      await installJobQueueAt(target.url);
    }
  } finally {
    await orm.close(true);
  }
}
