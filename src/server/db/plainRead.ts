import type { MikroORM } from '@mikro-orm/core';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';

// The hot reads (the chat list) as plain SQL through the driver. On PostgreSQL the
// statement goes straight to the pg pool the ORM holds, as a parameterised query, like any pg
// client sends it: the same connections and type parsers (timestamps stay PostgreSQL's text), but
// no ORM query formatting and logging and no kysely connection provider and its promise layers on
// the way (bench/results/api-chats.md). Elsewhere (the embedded PGlite, which runs in its
// worker thread) through the ORM's connection, as every other statement.
//
// On PostgreSQL each statement is a named prepared statement: pg prepares it once per connection,
// and PostgreSQL then neither parses nor plans it again on that connection (the chat list's
// lateral join costs more to plan than to run).
//
// Statements are written in the ORM's form, `?` for each parameter, and a `?` means nothing else
// in them (no `?` operators or literals): on PostgreSQL they become `$1, $2, ...` once. They are
// constants of the code: each distinct text is prepared under a name of its own.

export type PlainRead = <Row>(sql: string, params: readonly unknown[]) => Promise<Row[]>;

const readers = new WeakMap<MikroORM, PlainRead>();
const prepared = new Map<string, { name: string; text: string }>();

function preparedStatement(sql: string): { name: string; text: string } {
  let statement = prepared.get(sql);
  if (statement === undefined) {
    let n = 0;
    statement = { name: `plain_read_${prepared.size + 1}`, text: sql.replace(/\?/g, () => `$${++n}`) };
    prepared.set(sql, statement);
  }
  return statement;
}

function pgRead(connection: PostgreSqlConnection): PlainRead {
  let pool: Pool | undefined;
  return async <Row>(sql: string, params: readonly unknown[]) => {
    pool ??= (await connection.getNativeClient()) as Pool;
    const { name, text } = preparedStatement(sql);
    return (await pool.query<Row & object>({ name, text, values: params as unknown[] })).rows as Row[];
  };
}

/** Runs one read-only statement and answers its rows (see above). One reader per ORM. */
export function plainRead(orm: MikroORM): PlainRead {
  let read = readers.get(orm);
  if (!read) {
    const connection = orm.em.getConnection();
    read =
      connection instanceof PostgreSqlConnection
        ? pgRead(connection)
        : <Row>(sql: string, params: readonly unknown[]) => connection.execute(sql, [...params]) as Promise<Row[]>;
    readers.set(orm, read);
  }
  return read;
}
