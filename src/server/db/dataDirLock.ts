import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

// PGlite is single-process: a second server on the same directory would silently lose writes.
// proper-lockfile holds an atomic lock (a directory made with mkdir, which either succeeds or
// fails, also within one process) and keeps its mtime fresh while the server runs. A lock left
// by a server that died goes stale after `staleMs`, so a restart right after a crash waits for it
// to go stale and takes it over, while a live server's lock is never taken.
const staleMs = 5_000; // proper-lockfile's minimum
const updateMs = 1_000;

export async function lockDataDir(dataDir: string, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const options = {
    lockfilePath: path.join(dataDir, 'server.lock'),
    realpath: false,
    stale: staleMs,
    update: updateMs,
    onCompromised,
  };
  try {
    // Retries span a little more than the stale time: long enough to outlive a dead owner's lock.
    const release = await lockfile.lock(dataDir, { ...options, retries: { retries: 6, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 } });
    let released: Promise<void> | undefined;
    return () => (released ??= release().catch(() => {}));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new DataDirLockedError(
        `Another AI Coach server is already using the data directory ${dataDir}. ` +
          'The embedded database allows one server at a time: stop the other one, or start this one with another DATA_DIR (or a DATABASE_URL).',
      );
    }
    throw error;
  }
}
