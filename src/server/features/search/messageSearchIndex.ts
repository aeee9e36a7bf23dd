import type { MikroORM } from '@mikro-orm/core';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseTarget } from '../../db/orm.js';

// The full-text index over message content (search across chats). The message table
// can be large, so this index is not made by a migration: migrations run in one transaction, and a
// plain CREATE INDEX there would hold off every new message until it is built. On PostgreSQL it
// is built with CREATE INDEX CONCURRENTLY after start, in the background, on a connection of its
// own (writes go on meanwhile; search works without it, only slower). One instance builds it (an
// advisory lock); a build cut short (a stop, a crash) leaves an invalid index, which the next
// start drops and builds again. The embedded database serves one process and is small: there it
// is built at start.
//
// The same background step fills in "search_vector" (the lexemes search ranks by, kept by a
// trigger since Migration20261126170000_message_search_vector) for messages written before that
// column existed: 500 rows a statement in id order, so no statement holds many rows locked or
// runs long, until the end of the table. Search parses those messages' text until then, as it did before.

export const messageSearchIndexName = 'message_content_fts_idx';
const createSql = (concurrently: boolean) =>
  `create index ${concurrently ? 'concurrently ' : ''}if not exists "${messageSearchIndexName}" on "message" using gin (to_tsvector('english', "content"))`;
const buildLockKey = 72_704_240;
const backfillBatch = 500;
type BackfillStep = { last: number | string | null; updated: number | string };
// Walks the table in id order (the primary key), so each step reads only its own 500 rows however
// many were filled before it. The column is written directly, so the trigger (on content and
// status) does not fire; a reply still being written is left to the trigger, which fills it in
// when the reply ends.
const backfillSql = (after: number) => `with batch as (select "id" from "message" where "id" > ${Math.trunc(after)} order by "id" limit ${backfillBatch}),
  updated as (update "message" m set "search_vector" = to_tsvector('english', m."content") from batch
    where m."id" = batch."id" and m."search_vector" is null and m."status" <> 'streaming' returning m."id")
  select (select max("id") from batch) as "last", (select count(*) from updated) as "updated"`;

/** Fills in the search vectors of messages that have none, a batch at a time; answers how many. */
export async function backfillSearchVectors(query: (sql: string) => Promise<BackfillStep[]>, stopped: () => boolean = () => false): Promise<number> {
  let total = 0;
  let after = 0;
  while (!stopped()) {
    const [step] = await query(backfillSql(after));
    if (step?.last === null || step?.last === undefined) break;
    after = Number(step.last);
    total += Number(step.updated);
  }
  return total;
}

export type MessageSearchIndexBuild = { done: Promise<void>; stop: () => Promise<void> };

export function buildMessageSearchIndex(target: DatabaseTarget, orm: MikroORM, log: Logger): MessageSearchIndexBuild {
  if (target.kind === 'pglite') {
    const connection = orm.em.fork().getConnection();
    let stopping = false;
    const done = (async () => {
      await connection.execute(createSql(false));
      await backfillSearchVectors((sql) => connection.execute<BackfillStep[]>(sql), () => stopping);
    })().catch((error: unknown) => log.error({ err: error }, 'could not build the message search index'));
    return {
      done,
      stop: async () => {
        stopping = true;
        await done;
      },
    };
  }
  const client = new pg.Client({ connectionString: target.url, application_name: 'ai-coach-search-index' });
  let stopping = false;
  const done = (async () => {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [buildLockKey]);
    if (!rows[0]?.locked) return; // another instance is building it
    const invalid = await client.query(
      `select 1 from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1 and not i.indisvalid`,
      [messageSearchIndexName],
    );
    if (invalid.rowCount) await client.query(`drop index concurrently if exists "${messageSearchIndexName}"`);
    await client.query(createSql(true));
    await backfillSearchVectors(async (sql) => (await client.query<BackfillStep>(sql)).rows, () => stopping);
  })()
    .catch((error: unknown) => {
      if (!stopping) log.error({ err: error }, 'could not build the message search index; search works without it, only slower');
    })
    .finally(() => client.end().catch(() => {}));
  return {
    done,
    stop: async () => {
      stopping = true;
      // Ending the connection cancels a build under way; the next start finishes it.
      await client.end().catch(() => {});
      await done;
    },
  };
}
