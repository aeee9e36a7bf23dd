import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { PgliteConnection } from '@mikro-orm/pglite';
import { initialDataFile, ormOptions } from './orm.js';
import { installJobQueue } from '../jobs/jobQueue.js';

// The first start on an empty DATA_DIR used to spend most of its time creating the PGlite
// cluster (initdb, in WebAssembly) and then running every migration. `npm run build` does both
// once and keeps the result, a gzipped tar of the data directory as PGlite dumps it, next to the
// compiled server (dist/server/db). A first start unpacks it (PGlite's `loadDataDir`) instead,
// then runs the migrations as always, which finds nothing left to do. Under tsx (development,
// tests) there is no such file and the database is created as before.
//
// The image is made by the PGlite of node_modules at build time; `npm start` rebuilds when
// package-lock.json changes (build-if-stale.mjs), so the two stay the same version.

/** Creates a migrated PGlite cluster and writes it to `outFile` (build time). */
export async function buildInitialData(outFile: string = initialDataFile): Promise<number> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-initial-data-'));
  try {
    const orm = await MikroORM.init(ormOptions({ kind: 'pglite', directory: path.join(directory, 'pglite') }));
    try {
      await orm.migrator.up();
      const pglite = await (orm.em.getConnection() as unknown as PgliteConnection).getNativeClient();
      await installJobQueue(pglite);
      const image = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
      fs.writeFileSync(`${outFile}.tmp`, image);
      fs.renameSync(`${outFile}.tmp`, outFile);
      return image.length;
    } finally {
      await orm.close(true);
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
