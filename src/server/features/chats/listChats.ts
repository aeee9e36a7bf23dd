import type { Platform } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { authTexts } from '../../../shared/texts/index.js';
import type { ChatDto } from '../../db/entities/Chat.js';
import { plainRead } from '../../db/plainRead.js';
import { withEntityManager, type Context } from '../../trpc/context.js';
import { resolveUser, sessionUserAllowed } from '../auth/index.js';

// The chat list is the app's most frequent read (every page of /app, every client poll), so it
// is one plain statement, not entities: the owner's chats by the list index (chat_owner_list_idx),
// pinned first, then by last activity. For a signed-in session the same statement reads the
// account's demo flag, which is all resolveUser would load the user for: the account exists (a
// row) and may act as itself (sessionUserAllowed, the rule resolveUser applies) or the usual rules
// decide (the demo user in demo mode, else 401). A row whose chat is null is a user without chats.
type Row = {
  is_demo?: boolean;
  id: number | null;
  title: string;
  is_pinned: boolean;
  is_temporary: boolean;
  is_rehearsal: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

// A demo guest's copy of a sample chat is listed under the sample's id (Chat.toDto).
const columns = `coalesce("sample_of", "id") as "id", "title", "is_pinned", "is_temporary", "is_rehearsal", "created_at", "updated_at"`;
const order = `order by "is_pinned" desc, "updated_at" desc, "id" desc limit 500`;

const signedInSql = `select u."is_demo", c.* from "app_user" u
  left join lateral (select ${columns} from "chat" where "owner_id" = u."id" ${order}) c on true
  where u."id" = ?
  order by c."is_pinned" desc, c."updated_at" desc, c."id" desc`;
const ownerSql = `select ${columns} from "chat" where "owner_id" = ? ${order}`;

// The drivers hand timestamps over as PostgreSQL text. In a UTC session that text is
// "2026-11-23 22:10:00.123456+00", which becomes the ISO form by moving characters (the fraction
// cut to milliseconds, as Date does); anything else goes through the ORM's own parser
// (postgres-date), many times faster than Date's fallback parser either way.
const utcText = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

export function isoOf(value: Date | string, platform: Platform): string {
  if (typeof value === 'string') {
    const utc = utcText.exec(value);
    if (utc) return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').slice(0, 3).padEnd(3, '0')}Z`;
    return (platform.parseDate(value) as Date).toISOString();
  }
  return value.toISOString();
}

function dtos(rows: Row[], platform: Platform): ChatDto[] {
  const iso = (value: Date | string) => isoOf(value, platform);
  const chats: ChatDto[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    chats.push({ id: row.id, title: row.title, isPinned: row.is_pinned, isTemporary: row.is_temporary, isRehearsal: row.is_rehearsal, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) });
  }
  return chats;
}

// Plain statements through the driver (db/plainRead.ts): no EntityManager is forked unless the
// usual rules must load a user (the demo user, or no row).
export async function listChats(ctx: Context): Promise<ChatDto[]> {
  const { em } = ctx.deps.orm;
  const read = plainRead(ctx.deps.orm);
  const userId = ctx.session.userId;
  if (userId) {
    const rows = await read<Row>(signedInSql, [userId]);
    if (rows.length && sessionUserAllowed({ isDemo: rows[0]!.is_demo === true }, ctx.deps.config.demoMode)) return dtos(rows, em.getPlatform());
  }
  const user = await resolveUser(withEntityManager(ctx));
  if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  const rows = await read<Row>(ownerSql, [user.id]);
  return dtos(rows, em.getPlatform());
}
