import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

// Directories this process holds (a second server in the same process shares the pid).
const heldHere = new Set<string>();

// PGlite is single-process: a second server on the same directory would silently lose writes.
// A lock file holding the owner's pid refuses the second one; a lock left by a dead process is
// taken over.
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.lock');
  if (heldHere.has(file)) throw lockedError(process.pid, dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldHere.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) throw lockedError(owner, dataDir);
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function lockedError(owner: number, dataDir: string) {
  return new DataDirLockedError(
    `Another AI Coach server (pid ${owner}) is already using the data directory ${dataDir}. ` +
      'The embedded database allows one server at a time: stop the other one, or start this one with another DATA_DIR (or a DATABASE_URL).',
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
