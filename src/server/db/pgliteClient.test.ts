import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EmbeddedDatabaseError, PgliteWorkerClient } from './pgliteClient.js';

// The embedded PGlite in its worker thread, without the server: statements run off this thread,
// errors keep PostgreSQL's fields, transactions commit or roll back, and a failure of the worker
// itself rejects calls with a clear error instead of leaving them waiting.
describe('the embedded database in a worker thread', () => {
  let dir: string;
  let db: PgliteWorkerClient;
  const failures: Error[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-pglite-worker-'));
    db = new PgliteWorkerClient(path.join(dir, 'pglite'), { onFailure: (error) => failures.push(error) });
    await db.waitReady;
    await db.query('create table item (id int primary key, name text not null)');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps this thread responsive while a long statement runs', async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      // Pure computation inside PostgreSQL: on this thread it would block every timer until done.
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from generate_series(1, 2000000) a join generate_series(1, 1) b on true');
      expect(rows[0]!.n).toBe(2_000_000);
    } finally {
      clearInterval(ticker);
    }
    const took = performance.now() - started;
    expect(took).toBeGreaterThan(300);
    // Timers kept firing meanwhile: no gap comes near the statement's own duration.
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThan(took / 2);
  }, 60_000);

  it('keeps PostgreSQL error fields and rolls a failed transaction back', async () => {
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into item values ($1, $2)', [1, 'one']);
      await tx.query('insert into item values ($1, $2)', [1, 'again']);
    });
    await expect(failed).rejects.toMatchObject({ code: '23505', constraint: 'item_pkey' });
    expect((await db.query('select count(*)::int as n from item')).rows).toEqual([{ n: 0 }]);

    const value = await db.transaction(async (tx) => {
      await tx.query('insert into item values ($1, $2)', [2, 'two']);
      return 'done';
    });
    expect(value).toBe('done');
    await db.transaction(async (tx) => {
      await tx.query('insert into item values ($1, $2)', [3, 'three']);
      await tx.rollback();
    });
    expect((await db.query('select id from item order by id')).rows).toEqual([{ id: 2 }]);
  });

  it('runs a statement outside a transaction after the transaction ends, as PGlite does', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = db.transaction(async (tx) => {
      await tx.query('update item set name = $1 where id = 2', ['changed']);
      order.push('updated');
      await held;
      order.push('committing');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = db.query<{ name: string }>('select name from item where id = 2').then(({ rows }) => {
      order.push(`read ${rows[0]!.name}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await Promise.all([inside, outside]);
    expect(order).toEqual(['updated', 'committing', 'read changed']);
  });

  it('rejects every call with a clear error once the worker has failed, and says so once', async () => {
    expect(failures).toEqual([]);
    // The worker throws just after answering, but its answer and its error reach this thread by
    // different channels, in either order: the crash request may resolve or reject with the failure.
    await db.crashForTest().catch((error) => expect(error).toBeInstanceOf(EmbeddedDatabaseError));
    // Wait until the failure has reached this thread.
    await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 10_000 });
    await expect(db.query('select 1')).rejects.toBeInstanceOf(EmbeddedDatabaseError);
    await expect(db.query('select 1')).rejects.toThrow(/embedded database worker failed/);
    expect(failures).toHaveLength(1);
    expect(db.closed).toBe(true);
    await db.close(); // closing a failed database does not hang
  });
});

describe('the embedded database that cannot open', () => {
  // PGlite either throws or ends its thread (exit code 0) on a directory it cannot use: both are
  // a rejected start, never a wait.
  it('rejects its start with a clear error', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-pglite-bad-')), 'not-a-directory');
    fs.writeFileSync(file, 'x');
    const db = new PgliteWorkerClient(file);
    await expect(db.waitReady).rejects.toBeInstanceOf(EmbeddedDatabaseError);
    await db.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }, 60_000);
});
