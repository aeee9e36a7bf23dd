import pg from 'pg';
import { startEmbeddedDatabase, type DatabaseTarget } from './embedded.js';
import { openDatabase, rateLimitTable } from './orm.js';
import type { PgliteTransaction, PgliteWorkerClient } from './pgliteClient.js';

// `npm run db:move`: everything in one database copied into another, empty one of the same schema.
// The usual move is from DATA_DIR's embedded PGlite to PostgreSQL (`--to`); the way
// back (`--from`) works the same.
//
// - Both databases are migrated first (as a server start would), so both have the same schema;
//   their lists of applied migrations must then be equal.
// - The tables are read from the source's catalog (information_schema, pg_constraint), never
//   from a list kept by hand: a table added by a later migration is moved too. The migrations
//   table (mikro_orm_migrations) is the one left out: migrating the target wrote its rows already,
//   and the check above proves they are the same.
// - Rows travel as JSON made by PostgreSQL itself (json_agg on the source, json_populate_recordset
//   on the target), so every type (timestamps with their zone, bytea, json, arrays, numerics)
//   arrives as it was, without passing through JavaScript values.
// - Tables are filled parents first (foreign keys), each in primary-key order, in ONE transaction
//   on the target: a failure leaves it as empty as it was. The source is only read.
// - Sequences are set past the highest id (and never below the source's own position).
// - Row counts are compared table by table before the commit; any difference rolls it all back.

/** The embedded database is locked (DataDirLockedError) while a server uses it: the move refuses. */
export type MoveOptions = {
  /** The source: DATA_DIR's PGlite ('pglite') or a PostgreSQL URL. */
  from: DatabaseTarget;
  to: DatabaseTarget;
  dataDir: string;
  /** Told of progress, one line at a time. */
  say?: (line: string) => void;
  /** Rows a batch (tests make it small to cross batch borders). */
  batchRows?: number;
  /** Told after each table is copied, inside the transaction (a throw rolls the move back). */
  onTableCopied?: (table: string, rows: number) => void | Promise<void>;
};

export type TableCount = { table: string; source: number; target: number };

export class MoveRefusedError extends Error {}

const migrationsTable = 'mikro_orm_migrations';

/** A connection that runs SQL and answers rows; the same for PGlite and PostgreSQL. */
type Sql = { query<T>(sql: string, params?: unknown[]): Promise<T[]> };

type Side = {
  /** The migrated database, ready for SQL. */
  sql: Sql;
  /** Runs `work` in one transaction (rolled back when it throws). */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export async function moveDatabase(options: MoveOptions): Promise<TableCount[]> {
  const say = options.say ?? (() => {});
  if (options.from.kind === options.to.kind && options.from.kind === 'pglite') throw new MoveRefusedError('The source and the target are the same embedded database.');
  if (options.from.kind === 'postgresql' && options.to.kind === 'postgresql') {
    throw new MoveRefusedError('One side of a move is the embedded database in DATA_DIR: give either --to or --from, not both.');
  }
  const opened: Side[] = [];
  try {
    const source = await openSide(options.from, options.dataDir, say, 'source');
    opened.push(source);
    // The target must hold nothing before it is migrated (a database of something else is not
    // touched), and nothing after (only the migrations' own rows).
    const target = await openSide(options.to, options.dataDir, say, 'target', async (sql) => assertEmpty(sql, 'before'));
    opened.push(target);
    await assertEmpty(target.sql, 'after');

    const [sourceMigrations, targetMigrations] = await Promise.all([migrationsOf(source.sql), migrationsOf(target.sql)]);
    if (sourceMigrations.join('\n') !== targetMigrations.join('\n')) {
      throw new MoveRefusedError(
        'The two databases do not have the same migrations applied (is the target used by a newer version of AI Coach?): ' +
          `source ${sourceMigrations.length}, target ${targetMigrations.length}.`,
      );
    }

    const tables = await tablesInOrder(source.sql);
    const targetTables = new Set((await baseTables(target.sql)).filter((t) => t !== migrationsTable));
    const missing = tables.filter((t) => !targetTables.has(t));
    if (missing.length) throw new MoveRefusedError(`The target has no table ${missing.join(', ')}: it is not the same schema.`);
    say(`Moving ${tables.length} tables in one transaction...`);

    const counts = await target.transaction(async (into) => {
      const result: TableCount[] = [];
      for (const table of tables) {
        const copied = await copyTable(source.sql, into, table, options.batchRows ?? 2_000);
        const [{ n: sourceCount } = { n: 0 }] = await source.sql.query<{ n: number }>(`select count(*)::int as n from ${ident(table)}`);
        const [{ n: targetCount } = { n: 0 }] = await into.query<{ n: number }>(`select count(*)::int as n from ${ident(table)}`);
        if (copied !== sourceCount) throw new Error(`${table}: read ${copied} rows but the source counts ${sourceCount}`);
        result.push({ table, source: sourceCount, target: targetCount });
        await options.onTableCopied?.(table, copied);
      }
      await setSequences(source.sql, into);
      const differing = result.filter((c) => c.source !== c.target);
      if (differing.length) throw new Error(`Row counts differ for ${differing.map((c) => `${c.table} (${c.source} vs ${c.target})`).join(', ')}; nothing was moved.`);
      return result;
    });
    return counts;
  } finally {
    for (const side of opened.reverse()) await side.close().catch(() => {});
  }
}

async function openSide(target: DatabaseTarget, dataDir: string, say: (line: string) => void, role: string, beforeMigrating?: (sql: Sql) => Promise<void>): Promise<Side> {
  if (target.kind === 'postgresql') {
    if (beforeMigrating) await withClient(target.url, (client) => beforeMigrating(clientSql(client)));
    say(`Migrating the ${role} (PostgreSQL)...`);
    const database = await openDatabase(target);
    await database.close();
    const client = new pg.Client({ connectionString: target.url, application_name: 'ai-coach-db-move' });
    await client.connect();
    const sql = clientSql(client);
    return {
      sql,
      async transaction(work) {
        await client.query('begin');
        try {
          const result = await work(sql);
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        }
      },
      close: () => client.end(),
    };
  }
  // The data directory's lock: refused while a server runs on it, and held for the whole move.
  const embedded = await startEmbeddedDatabase(dataDir, target.directory, () => {});
  try {
    await embedded.pglite.waitReady;
    if (beforeMigrating) await beforeMigrating(pgliteSql(embedded.pglite));
    say(`Migrating the ${role} (embedded PGlite in ${dataDir})...`);
    const database = await openDatabase(target, { embedded });
    const sql = pgliteSql(embedded.pglite);
    return {
      sql,
      transaction: (work) => embedded.pglite.transaction((tx) => work(pgliteSql(tx))),
      async close() {
        await database.close();
        await embedded.releaseLock();
      },
    };
  } catch (error) {
    await embedded.pglite.close().catch(() => {});
    await embedded.releaseLock();
    throw error;
  }
}

function clientSql(client: pg.Client): Sql {
  return { query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[] };
}

function pgliteSql(db: PgliteWorkerClient | PgliteTransaction): Sql {
  return { query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params ?? [])).rows };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'ai-coach-db-move' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A quoted identifier: table names come from the catalog, but are quoted all the same. */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function baseTables(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((r) => r.name);
}

async function assertEmpty(sql: Sql, when: 'before' | 'after') {
  const holding: string[] = [];
  for (const table of await baseTables(sql)) {
    if (table === migrationsTable) continue;
    const [row] = await sql.query<{ any: boolean }>(`select exists (select 1 from ${ident(table)}) as any`);
    if (row?.any) holding.push(table);
  }
  // Tables in other schemas than public are none of ours: their presence alone refuses.
  const others = await sql.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema not in ('public', 'pg_catalog', 'information_schema') and table_schema not like 'pg\\_%' limit 5`,
  );
  if (holding.length || others.length) {
    throw new MoveRefusedError(
      `The target database is not empty (${[...holding, ...others.map((o) => o.name)].slice(0, 8).join(', ')} ${when === 'before' ? 'already hold rows' : 'hold rows'}). ` +
        'Move into a new, empty database (createdb), never into one a server has already used.',
    );
  }
}

async function migrationsOf(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(`select name from ${ident(migrationsTable)} order by name`);
  return rows.map((r) => r.name);
}

/** The source's tables, every table after those its foreign keys point to. */
async function tablesInOrder(sql: Sql): Promise<string[]> {
  // Not moved: the migrations' own table (each side has its own), and on PostgreSQL the rate
  // limiter's counters (rate-limiter-flexible's table, made on first use, PostgreSQL only: the
  // embedded database counts in memory). A move back to the embedded database failed on it.
  const tables = (await baseTables(sql)).filter((t) => t !== migrationsTable && t !== rateLimitTable);
  const edges = await sql.query<{ child: string; parent: string }>(
    `select ch.relname as child, pa.relname as parent
       from pg_constraint c
       join pg_class ch on ch.oid = c.conrelid
       join pg_class pa on pa.oid = c.confrelid
       join pg_namespace n on n.oid = ch.relnamespace
      where c.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!ready.length) throw new Error(`The foreign keys of ${tables.filter((t) => !placed.has(t)).join(', ')} form a cycle`);
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

async function primaryKey(sql: Sql, table: string): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `select a.attname as name
       from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`,
    [ident(table)],
  );
  return rows.map((r) => r.name);
}

/** Copies a table's rows in batches; answers how many were read. */
async function copyTable(from: Sql, into: Sql, table: string, batchRows: number): Promise<number> {
  // Columns the target lets one write (generated columns are computed again there).
  const columns = (
    await into.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
      [table],
    )
  ).map((c) => ident(c.name));
  const key = await primaryKey(from, table);
  // A self-referencing row after the one it points to: ids grow with time.
  const order = (key.length ? key : columns.map((c) => c.slice(1, -1))).map(ident).join(', ');
  let copied = 0;
  for (let offset = 0; ; offset += batchRows) {
    const [batch] = await from.query<{ rows: string | null; n: number }>(
      `select json_agg(t)::text as rows, count(*)::int as n from (select * from ${ident(table)} order by ${order} limit ${batchRows} offset ${offset}) t`,
    );
    if (!batch || batch.n === 0 || batch.rows === null) break;
    const list = columns.join(', ');
    await into.query(
      `insert into ${ident(table)} (${list}) overriding system value select ${list} from json_populate_recordset(null::${ident(table)}, $1::json)`,
      [batch.rows],
    );
    copied += batch.n;
    if (batch.n < batchRows) break;
  }
  return copied;
}

/** Every sequence of the target past the highest value in use, and never behind the source's. */
async function setSequences(from: Sql, into: Sql) {
  const sequences = await into.query<{ seq: string; tbl: string | null; col: string | null }>(
    `select s.relname as seq, t.relname as tbl, a.attname as col
       from pg_class s
       join pg_namespace n on n.oid = s.relnamespace
       left join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i') and d.refobjsubid > 0
       left join pg_class t on t.oid = d.refobjid
       left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const { seq, tbl, col } of sequences) {
    const [source] = await from
      .query<{ last: string; called: boolean }>(`select last_value::text as last, is_called as called from ${ident(seq)}`)
      .catch(() => [] as { last: string; called: boolean }[]);
    const sourceLast = source?.called ? BigInt(source.last) : 0n;
    let highest = 0n;
    if (tbl && col) {
      const [row] = await into.query<{ max: string | null }>(`select max(${ident(col)})::text as max from ${ident(tbl)}`);
      highest = row?.max ? BigInt(row.max) : 0n;
    }
    const value = highest > sourceLast ? highest : sourceLast;
    if (value > 0n) await into.query(`select setval($1::regclass, $2::bigint, true)`, [ident(seq), value.toString()]);
  }
}

/** The lines `npm run db:move` prints: each table's rows in the source and the target. */
export function formatCounts(counts: TableCount[]): string {
  const width = Math.max(5, ...counts.map((c) => c.table.length));
  const lines = [`${'table'.padEnd(width)}  ${'source'.padStart(8)}  ${'target'.padStart(8)}`];
  for (const c of counts) lines.push(`${c.table.padEnd(width)}  ${String(c.source).padStart(8)}  ${String(c.target).padStart(8)}${c.source === c.target ? '' : '  DIFFERENT'}`);
  const total = counts.reduce((sum, c) => sum + c.target, 0);
  lines.push(`${'total'.padEnd(width)}  ${String(counts.reduce((sum, c) => sum + c.source, 0)).padStart(8)}  ${String(total).padStart(8)}`);
  return lines.join('\n');
}
