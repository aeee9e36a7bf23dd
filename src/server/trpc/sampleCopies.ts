import type { MikroORM } from '@mikro-orm/core';
import { plainRead } from '../db/plainRead.js';

// A visitor's (or a former visitor's) copies of the demo template's samples answer to the samples'
// ids, for reads as for writes: `chatId: 1` in any input names their copy of sample chat 1, and so
// do the template's ids of the sample goals (and their key results), memories and example
// rehearsal (and its messages, for a retry). The rewriting goes by field name: see copyOf below.

// The template's chats never change (nothing writes to them), so their ids are read once per
// database: most inputs then need no statement to tell that they name no sample.
const samplesOf = new WeakMap<MikroORM, Promise<ReadonlySet<number>>>();
export function sampleChatIds(orm: MikroORM): Promise<ReadonlySet<number>> {
  let ids = samplesOf.get(orm);
  if (!ids) {
    ids = plainRead(orm)<{ id: number }>(`select c."id" from "chat" c join "app_user" u on u."id" = c."owner_id" where u."is_demo"`, []).then(
      (rows) => new Set(rows.map((row) => Number(row.id))),
    );
    // A failed read is tried again by the next call.
    ids.catch(() => samplesOf.delete(orm));
    samplesOf.set(orm, ids);
  }
  return ids;
}

// The input fields that may name a row of the template that a visitor's space holds a copy of,
// and the statement that finds the owner's copy (parameters: the owner, the template's id). The
// template's goals, memories and rehearsal carry their ids in these fields only; a copy remembers
// the row it copies (sample_of), a key result its goal's copy and its position, a message its
// chat's copy and its place in it. Ids of the template's rows are never reused (serial), so an id
// that has a copy named the template's row.
type CopyLookup = { field: string; paths?: RegExp; sql: string };
const copyOf: CopyLookup[] = [
  { field: 'goalId', sql: `select "id" from "goal" where "owner_id" = ? and "sample_of" = ? limit 1` },
  { field: 'memoryId', sql: `select "id" from "memory" where "owner_id" = ? and "sample_of" = ? limit 1` },
  {
    field: 'keyResultId',
    sql: `select k."id" from "key_result" t join "goal" g on g."sample_of" = t."goal_id" and g."owner_id" = ?
           join "key_result" k on k."goal_id" = g."id" and k."position" = t."position" where t."id" = ? limit 1`,
  },
  { field: 'id', paths: /^rehearsals\./, sql: `select "id" from "rehearsal" where "owner_id" = ? and "sample_of" = ? limit 1` },
  {
    field: 'fromMessageId',
    paths: /^rehearsals\./,
    sql: `select m."id" from "message" t join "chat" c on c."sample_of" = t."chat_id" and c."owner_id" = ?
           join lateral (select x."id" from "message" x where x."chat_id" = c."id" order by x."id"
                         offset (select count(*) from "message" y where y."chat_id" = t."chat_id" and y."status" = 'complete' and y."id" < t."id") limit 1) m on true
          where t."id" = ? and t."status" = 'complete' limit 1`,
  },
];

const asId = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : undefined);

/** The input with each field naming a template sample replaced by the owner's copy of it, when they have one (`path`: the procedure's, null for a registered account). */
export async function ownCopiesOfSamples(orm: MikroORM, owner: number, sampleChats: ReadonlySet<number>, path: string | null, input: unknown): Promise<unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const fields = input as Record<string, unknown>;
  const lookups: CopyLookup[] = [
    { field: 'chatId', sql: `select "id" from "chat" where "owner_id" = ? and "sample_of" = ? limit 1` },
    // Only a guest space holds copies of the goals, memories and rehearsal that the screens still
    // name by the template's ids (null: a registered account, spared the statements).
    ...(path === null ? [] : copyOf.filter((lookup) => !lookup.paths || lookup.paths.test(path))),
  ];
  let mapped: Record<string, unknown> | undefined;
  for (const lookup of lookups) {
    const value = fields[lookup.field];
    const id = asId(value);
    // A chat id names a sample only if it is one of the template's chats (known without a statement).
    if (id === undefined || (lookup.field === 'chatId' && !sampleChats.has(id))) continue;
    const rows = await plainRead(orm)<{ id: number }>(lookup.sql, [owner, id]);
    const copy = rows[0] ? Number(rows[0].id) : undefined;
    if (copy === undefined) continue;
    mapped = { ...(mapped ?? fields), [lookup.field]: typeof value === 'string' ? String(copy) : copy };
  }
  return mapped ?? input;
}
