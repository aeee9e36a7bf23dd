import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { lockDataDir } from './dataDirLock.js';
import { PgliteWorkerClient } from './pgliteClient.js';

// Where the data lives, and the embedded database's early start. This module loads no ORM and no
// framework, so that the entry point (main.ts) can take the data directory's lock and start PGlite
// in its worker thread first, and load the server's modules while it opens: two things of about a
// second each that used to happen one after the other (bench/results/start.md).

const here = path.dirname(fileURLToPath(import.meta.url));
// A migrated, empty cluster made by `npm run build` (initialData.ts); absent under tsx.
export const initialDataFile = path.join(here, 'pglite-initial.tar.gz');

export type DatabaseTarget =
  | { kind: 'postgresql'; url: string }
  | { kind: 'pglite'; directory: string };

export function databaseTarget(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgresql', url: config.databaseUrl }
    : { kind: 'pglite', directory: path.join(config.dataDir, 'pglite') };
}

/** The embedded database, locked and starting in its worker thread; openDatabase takes it over. */
export type EmbeddedDatabase = {
  directory: string;
  pglite: PgliteWorkerClient;
  releaseLock: () => Promise<void>;
  /** Who is told if the worker fails or exits on its own (a failure before this is kept and told then). */
  onFailure(handler: (error: Error) => void): void;
};

/**
 * Takes the data directory's lock (DataDirLockedError when another server holds it) and starts
 * PGlite on `directory` in its worker thread, without waiting for it to be ready.
 */
export async function startEmbeddedDatabase(dataDir: string, directory: string, onLockLost: (error: Error) => void): Promise<EmbeddedDatabase> {
  const releaseLock = await lockDataDir(dataDir, onLockLost);
  let handler: ((error: Error) => void) | undefined;
  let early: Error | undefined;
  const initialData = fs.existsSync(initialDataFile) ? initialDataFile : undefined;
  const pglite = new PgliteWorkerClient(directory, {
    initialData,
    onFailure: (error) => {
      if (handler) handler(error);
      else early ??= error;
    },
  });
  return {
    directory,
    pglite,
    releaseLock,
    onFailure(next) {
      handler = next;
      if (early) next(early);
    },
  };
}
