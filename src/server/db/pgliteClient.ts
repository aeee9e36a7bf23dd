import { Worker } from 'node:worker_threads';
import type { PgliteReply, PgliteRequest, PgliteWorkerData, SerializedError } from './pgliteWorker.js';

// The embedded PGlite runs in a worker thread (pgliteWorker.ts); this is its stand-in on the
// server's thread. MikroORM's PGlite driver takes a PGlite instance (`driverOptions.pglite`) and
// uses only what kysely's PGlite dialect needs: query, transaction, close, closed, ready and
// waitReady. Each call is a message to the worker and its answer; rows come back by structured
// clone.
//
// If the worker fails or exits, every call waiting for it and every later call rejects with a
// clear error (never a hang): /readyz then answers 503, requests get the database-unavailable
// answer, and `onFailure` is told once.

type QueryOptions = { rowMode?: 'array' | 'object' };
type Results = { rows: unknown[]; fields: Array<{ name: string; dataTypeID: number }>; affectedRows?: number };
// A request without its id (the id is given when it is sent); Omit over a union keeps only the
// keys common to all its members, so it is distributed over them.
type Unsent = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;
type PendingCall = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class EmbeddedDatabaseError extends Error {}

const workerFile = new URL(import.meta.url.endsWith('.ts') ? './pgliteWorker.ts' : './pgliteWorker.js', import.meta.url);

function revive(error: SerializedError): Error {
  const revived = new Error(error.message);
  revived.name = error.name;
  Object.assign(revived, error.fields);
  return revived;
}

export type PgliteTransaction = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results & { rows: T[] }>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

export class PgliteWorkerClient {
  readonly waitReady: Promise<void>;
  ready = false;
  closed = false;
  #worker: Worker;
  #pending = new Map<number, PendingCall>();
  #nextId = 1;
  #failure: Error | undefined;
  #closing: Promise<void> | undefined;
  #onFailure: (error: Error) => void;

  /**
   * `initialData`: a gzipped tar of a data directory (PGlite's dumpDataDir) that a first start
   * unpacks instead of creating the cluster; ignored when the directory already holds one.
   */
  constructor(dataDir: string, options: { onFailure?: (error: Error) => void; initialData?: string } = {}) {
    this.#onFailure = options.onFailure ?? (() => {});
    const workerData: PgliteWorkerData = { dataDir, initialData: options.initialData };
    this.#worker = new Worker(workerFile, { workerData, name: 'pglite' });
    let started!: PendingCall;
    this.waitReady = new Promise<void>((resolve, reject) => {
      started = { resolve: () => resolve(), reject };
    });
    this.waitReady.then(() => (this.ready = true), () => {});
    this.#pending.set(0, started);
    // The worker keeps the process alive only while the server waits for one of its answers (it
    // is referenced now, for the start, and unreferenced whenever nothing is pending).
    this.#worker.on('message', (reply: PgliteReply) => {
      const call = this.#pending.get(reply.id);
      if (!call) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (reply.ok) call.resolve(reply.value);
      else if (reply.id !== 0) call.reject(revive(reply.error));
      else {
        // The start failed (the caller is told through waitReady): nothing more will work.
        this.#failure = new EmbeddedDatabaseError(`The embedded database could not open ${dataDir}: ${reply.error.message}`);
        this.closed = true;
        call.reject(this.#failure);
        void this.#worker.terminate();
      }
    });
    this.#worker.on('error', (error) => this.#fail(new EmbeddedDatabaseError(`The embedded database worker failed: ${error.message}`, { cause: error })));
    this.#worker.on('messageerror', (error) => this.#fail(new EmbeddedDatabaseError(`The embedded database worker sent an unreadable message: ${error.message}`)));
    this.#worker.on('exit', (code) => {
      this.closed = true;
      if (!this.#closing || this.#pending.size) this.#fail(new EmbeddedDatabaseError(`The embedded database worker stopped (exit code ${code})`));
    });
  }

  #fail(error: Error) {
    const first = !this.#failure;
    this.#failure ??= error;
    this.closed = true;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const call of pending) call.reject(this.#failure);
    if (first && !this.#closing) this.#onFailure(this.#failure);
    void this.#worker.terminate();
  }

  #call(request: Unsent): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.closed) return Promise.reject(new EmbeddedDatabaseError('The embedded database is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id } as PgliteRequest);
    });
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<Results & { rows: T[] }> {
    return this.#call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', tx }) as Promise<Results & { rows: T[] }>;
  }

  exec(sql: string, tx?: number): Promise<Results[]> {
    return this.#call({ op: 'exec', sql, tx }) as Promise<Results[]>;
  }

  // The callback's statements run inside one transaction in the worker; it commits when the
  // callback resolves and rolls back when it throws (or called rollback), like PGlite's own.
  async transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.#call({ op: 'begin' })) as number;
    let rolledBack = false;
    let ended = false;
    const tx: PgliteTransaction = {
      query: (sql, params, options) => (ended ? Promise.reject(new Error('the transaction is closed')) : this.query(sql, params, options, id)),
      exec: (sql) => (ended ? Promise.reject(new Error('the transaction is closed')) : this.exec(sql, id)),
      rollback: async () => {
        rolledBack = true;
      },
      get closed() {
        return ended;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      ended = true;
      await this.#call({ op: 'rollback', tx: id }).catch(() => {});
      throw error;
    }
    ended = true;
    await this.#call({ op: rolledBack ? 'rollback' : 'commit', tx: id });
    return result;
  }

  /** Closes the database (its files are complete afterwards) and stops the worker. */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown() {
    if (!this.#failure && !this.closed) {
      const id = this.#nextId++;
      const answered = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
      this.#worker.ref();
      this.#worker.postMessage({ op: 'close', id } satisfies PgliteRequest);
      try {
        await answered;
      } finally {
        this.closed = true;
        await this.#worker.terminate();
      }
    } else {
      this.closed = true;
      await this.#worker.terminate();
    }
  }

  /** Tests only: makes the worker thread throw, as a fault inside it would. */
  crashForTest(): Promise<unknown> {
    return this.#call({ op: 'crash' });
  }
}
