import type { MikroORM } from '@mikro-orm/core';
import { AuthSession } from '../../db/entities/AuthSession.js';
import type { AuthedContext } from '../../trpc/context.js';
import { ownedBy, userOwnedEntities } from './userOwnedEntities.js';

/**
 * Removes every row of a user, in every table the metadata says holds user rows (provider
 * tokens and sessions included), deepest first so no foreign key stands in the way, then the
 * user. One transaction: all of it or nothing.
 */
export async function deleteUserRows(orm: MikroORM, userId: number): Promise<void> {
  const entities = userOwnedEntities(orm).sort((a, b) => b.path.length - a.path.length);
  await orm.em.fork().transactional(async (em) => {
    for (const entity of entities) await em.nativeDelete(entity.meta.class, ownedBy(entity, userId));
  });
}

// 'Delete my account' (Settings, Privacy tab), confirmed by typing DELETE. Never the shared demo
// account: a demo visitor without a space of their own is refused before this runs (the
// procedure's meta, trpc/principal.ts), and no mutation is ever handed the template.
export async function deleteAccount(ctx: AuthedContext) {
  // Every session of the account ends with it, on every instance, and their sockets close:
  // not only this one.
  const sessionIds = (await ctx.em.find(AuthSession, { user: ctx.user.id }, { fields: ['id'] })).map((row) => row.id);
  await deleteUserRows(ctx.deps.orm, ctx.user.id);
  ctx.deps.log.info({ userId: ctx.user.id }, 'account deleted');
  await ctx.deps.sessions.end(sessionIds.filter((id) => id !== ctx.session.id));
  // Ends the session the way logout does (its row went with the user's rows; this clears the
  // cookie and tells every instance to drop it and close its sockets).
  await ctx.session.end();
  return { success: true as const };
}
