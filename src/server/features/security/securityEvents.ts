import type { IncomingHttpHeaders } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { ListSecurityEventsInput, SecurityEventKind } from '../../../shared/schemas/security.js';
import { securityEventLimits } from '../../../shared/schemas/security.js';
import { SecurityEvent } from '../../db/entities/SecurityEvent.js';
import type { AuthedContext } from '../../trpc/context.js';

export type SecurityEventInput = {
  userId: number;
  kind: SecurityEventKind;
  /** The client's address as the request context resolved it (clientIp, proxies counted). */
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * Writes one entry of the user's security activity at once (an INSERT of its own, not left to a
 * later flush), through `em` (inside its transaction if it is in one) or, given the app's deps or
 * ORM, through a fresh EntityManager. The one way to record an event: features call this.
 */
export async function recordSecurityEvent(target: EntityManager | { orm: MikroORM }, event: SecurityEventInput): Promise<void> {
  const em = 'orm' in target ? target.orm.em.fork() : target;
  await em.insert(SecurityEvent, {
    user: event.userId,
    kind: event.kind,
    createdAt: new Date(),
    address: event.ip?.slice(0, 64) || null,
    userAgent: event.userAgent?.slice(0, 512) || null,
  });
}

/** The event of a request: its address and user agent, for `userId` (the signed-in user by default). */
export function requestEvent(
  ctx: { clientIp: string; headers: IncomingHttpHeaders; user?: { id: number } | null },
  kind: SecurityEventKind,
  userId: number | undefined = ctx.user?.id,
): SecurityEventInput {
  if (userId === undefined) throw new Error(`A security event (${kind}) needs a user`);
  return { userId, kind, ip: ctx.clientIp, userAgent: ctx.headers['user-agent'] ?? null };
}

export type SecurityEventDto = ReturnType<SecurityEvent['toDto']>;

/** The signed-in user's own events, newest first; `nextCursor` asks for the page after. */
export async function listSecurityEvents(
  ctx: AuthedContext,
  input: ListSecurityEventsInput,
): Promise<{ events: SecurityEventDto[]; nextCursor: number | null }> {
  const limit = Number(input.limit ?? securityEventLimits.defaultPage);
  const where = input.cursor === undefined ? { user: ctx.user.id } : { user: ctx.user.id, id: { $lt: Number(input.cursor) } };
  // One more than asked tells whether an older page exists.
  const rows = await ctx.em.find(SecurityEvent, where, { orderBy: { id: 'desc' }, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { events: page.map((row) => row.toDto()), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}
