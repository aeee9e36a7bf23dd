import type { MikroORM } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { ApiKeyScope } from '../../shared/schemas/apiKeys.js';
import { apiKeyTexts, authTexts } from '../../shared/texts/index.js';
import { plainRead } from '../db/plainRead.js';
import type { User } from '../db/entities/User.js';
import { resolveUser } from '../features/auth/currentUser.js';
import { startGuestSpace } from '../features/auth/guestAccount.js';
import type { Session } from '../features/auth/session.js';
import type { FactSources } from '../providers/ai/contract.js';
import type { DbContext } from './context.js';

// Who a request acts as, decided in one place for every procedure (HTTP, REST, tRPC, /ws):
//
// - an API key: its owner, and only in procedures that declare one of the key's scopes;
// - a registered account or a guest space: itself;
// - a demo visitor without a space of their own: the demo template, for reads only. Whatever else
//   they do first makes them a private guest space (a copy of the template) and signs them into
//   it; that write, and everything after it, acts on the space. The template is never handed to a
//   handler that can write (a mutation), whatever the procedure: export, sessions, settings, chats.
//
// A visitor's (or a former visitor's) copies of the template's samples answer to the samples' ids,
// for reads as for writes: `chatId: 1` in any input names their copy of sample chat 1, and so do
// the template's ids of the sample goals (and their key results), memories and example rehearsal
// (and its messages, for a retry): see copyOf below.

/** What a procedure declares about API keys (tRPC meta). */
export type ProcedureMeta = {
  /**
   * The key scopes that open this procedure to an API key (any one of them is enough); 'any' for
   * every key. Absent: closed to keys (403 before any work).
   */
  keys?: readonly ApiKeyScope[] | 'any';
  /**
   * What a demo visitor without a space of their own gets from this mutation: by default a guest
   * space made for it (and the mutation acts on that); `refused`: 403 with this message, nothing
   * made (a space made only to be acted on would be pointless: deleting the account).
   */
  visitor?: { refused: string };
};

/** Refuses an API key that the procedure does not open itself to, before its input is read. */
export function refuseUnscopedKey(session: Pick<Session, 'viaApiKey' | 'keyScopes'>, meta: ProcedureMeta | undefined): void {
  if (!session.viaApiKey) return;
  const accepted = meta?.keys;
  if (!accepted) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.notWithApiKey });
  if (accepted === 'any') return;
  const held = session.keyScopes ?? [];
  if (!accepted.some((scope) => held.includes(scope))) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.missingScope(accepted[0]!) });
}

/**
 * What the coach may read beyond the user's own data for a turn this request starts: everything
 * for a browser session; with an API key, the mailbox only with `mail:read` and the calendar only
 * with `calendar:read`.
 */
export function factSourcesOf(session: Pick<Session, 'viaApiKey' | 'keyScopes'>): FactSources {
  if (!session.viaApiKey) return { mail: true, calendar: true };
  const held = session.keyScopes ?? [];
  return { mail: held.includes('mail:read'), calendar: held.includes('calendar:read') };
}

/** What a guest space cannot reach, by the router a procedure is in (the message names it). */
export type OutsideWorld = keyof typeof authTexts.accountRequiredFor;
const outsideWorldOfRouter: Record<string, OutsideWorld> = {
  microsoft: 'microsoft',
  twilio: 'calls',
  apiKeys: 'apiKeys',
  profile: 'phone',
  goals: 'goalCalls',
  auth: 'sessions',
  privacy: 'dataRights',
  nudges: 'nudgeSettings',
};

type Call = {
  type: 'query' | 'mutation' | 'subscription';
  meta: ProcedureMeta | undefined;
  path: string;
  getRawInput: () => Promise<unknown>;
  /** Only a registered account's own browser session (integrations, keys): never a visitor or a guest. */
  accountOnly: boolean;
};

export type Actor = { user: User; getRawInput: () => Promise<unknown> };

/** The user a call acts as (see above), and its input with the samples' chat ids resolved. */
export async function actAs(ctx: DbContext, call: Call): Promise<Actor> {
  const resolved = await resolveUser(ctx);
  if (!resolved) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  if (call.accountOnly && (resolved.isDemo || resolved.isGuest)) {
    const what = outsideWorldOfRouter[call.path.split('.')[0] ?? ''];
    throw new TRPCError({ code: 'FORBIDDEN', message: what ? authTexts.accountRequiredFor[what] : authTexts.accountRequired });
  }
  let user = resolved;
  if (user.isDemo) {
    // The template: read as it is, never written. Its own chat ids name its own chats.
    if (call.type !== 'mutation') return { user, getRawInput: call.getRawInput };
    if (call.meta?.visitor) throw new TRPCError({ code: 'FORBIDDEN', message: call.meta.visitor.refused });
    const overSocket = ctx.session.onStarted !== undefined;
    if (!overSocket && !ctx.session.canStart) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.guestOverWebSocket });
    user = (await startGuestSpace({ ...ctx, user }, { overSocket })).user;
  }
  const sampleIds = await sampleChatIds(ctx.deps.orm);
  if (!sampleIds.size) return { user, getRawInput: call.getRawInput };
  const owner = user.id;
  return { user, getRawInput: async () => ownCopiesOfSamples(ctx.deps.orm, owner, sampleIds, user.isGuest ? call.path : null, await call.getRawInput()) };
}

// The template's chats never change (nothing writes to them), so their ids are read once per
// database: most inputs then need no statement to tell that they name no sample.
const samplesOf = new WeakMap<MikroORM, Promise<ReadonlySet<number>>>();
function sampleChatIds(orm: MikroORM): Promise<ReadonlySet<number>> {
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
async function ownCopiesOfSamples(orm: MikroORM, owner: number, sampleChats: ReadonlySet<number>, path: string | null, input: unknown): Promise<unknown> {
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
