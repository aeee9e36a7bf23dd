// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every statement
// runs synchronously on the thread that owns it, file writes included. Here that thread is a
// worker, so statements no longer stall the server's event loop (requests, WebSockets, token
// streaming); the server talks to it through pgliteClient.ts.
//
// This file is loaded as a worker on its own: it imports packages only (no relative modules), so
// that Node runs it as it is (type stripping) under tsx, Vitest and the compiled build alike.
import { PGlite, types } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

export type PgliteWorkerData = { dataDir: string; initialData?: string };

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' }
  // Tests only: proves that a failure of the worker itself surfaces on the server.
  | { id: number; op: 'crash' };

export type SerializedError = { name: string; message: string; fields: Record<string, unknown> };

// id 0 answers the start (the cluster opened, or why it could not be).
export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

// The same type parsers MikroORM gives the PGlite it creates itself (createPostgreSqlTypeParsers):
// dates, timestamps and intervals stay strings, which the ORM converts; their arrays are arrays of
// strings.
const keepString = (value: string) => value;
const parsers: Record<number, (value: string, typeId?: number) => unknown> = {};
for (const oid of [1082, 1114, 1184, 1186]) parsers[oid] = keepString;
for (const oid of [1182, 1115, 1185, 1187]) parsers[oid] = (value) => types.arrayParser(value, keepString, oid);

// PostgreSQL's error fields (code, constraint, detail, ...) travel with the message: MikroORM maps
// the code to its exceptions (a unique violation, a foreign key, ...).
function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) {
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : JSON.stringify(error) ?? String(error);
    return { name: 'Error', message, fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    if (typeof value === 'object' && value !== null) continue;
    fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

class RollbackRequested extends Error {}

type OpenTransaction = { tx: Transaction; decide: (commit: boolean) => void; done: Promise<unknown> };

async function main() {
  const port = parentPort;
  if (!port) throw new Error('pgliteWorker.ts runs as a worker thread');
  const { dataDir, initialData } = workerData as PgliteWorkerData;
  const reply = (message: PgliteReply) => port.postMessage(message);

  let db: PGlite;
  try {
    // A new data directory starts from the build's migrated cluster when there is one (faster
    // than initdb); PGlite refuses to unpack it over an existing cluster.
    const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
    const loadDataDir = fresh && initialData ? new Blob([fs.readFileSync(initialData)]) : undefined;
    db = await PGlite.create({ dataDir, parsers, loadDataDir });
  } catch (error) {
    reply({ id: 0, ok: false, error: serializeError(error) });
    return; // the server ends this thread
  }

  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  // PGlite runs one statement at a time and holds its own lock through a transaction: a statement
  // outside it waits until it ends, as it would on the server's thread. Requests are therefore
  // handled as they come, never queued behind one another here (a queued statement of the open
  // transaction would wait for one that waits for the transaction: a deadlock).
  async function begin(): Promise<number> {
    const id = nextTransaction++;
    let decide!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const done = db.transaction(async (tx) => {
      transactions.set(id, { tx, decide, done });
      started();
      if (!(await decided)) throw new RollbackRequested();
    });
    done.catch(() => {}).finally(() => transactions.delete(id));
    // A BEGIN that fails rejects `done` before the callback ever runs.
    await Promise.race([begun, done]);
    return id;
  }

  async function end(id: number, commit: boolean) {
    const open = transactions.get(id);
    if (!open) throw new Error(`no open transaction ${id}`);
    open.decide(commit);
    try {
      await open.done;
    } catch (error) {
      if (!(error instanceof RollbackRequested)) throw error;
    }
    return null;
  }

  function on(id: number | undefined) {
    if (id === undefined) return db;
    const open = transactions.get(id);
    if (!open) throw new Error(`no open transaction ${id}`);
    return open.tx;
  }

  async function handle(request: PgliteRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const result = await on(request.tx).query(request.sql, request.params, { rowMode: request.rowMode });
        return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
      }
      case 'exec': {
        const results = await on(request.tx).exec(request.sql);
        return results.map((result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }));
      }
      case 'begin':
        return begin();
      case 'commit':
        return end(request.tx, true);
      case 'rollback':
        return end(request.tx, false);
      case 'close':
        for (const open of transactions.values()) open.decide(false);
        await db.close();
        return null;
      case 'crash':
        setImmediate(() => {
          throw new Error('the embedded database worker crashed (on request)');
        });
        return null;
    }
  }

  port.on('message', (request: PgliteRequest) => {
    handle(request).then(
      (value) => reply({ id: request.id, ok: true, value }),
      (error) => reply({ id: request.id, ok: false, error: serializeError(error) }),
    );
  });
  reply({ id: 0, ok: true, value: null });
}

void main();
