import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';

export const demoUserId = 1;

// The signed-in user; without a session, the demo user while DEMO_MODE is on (SPEC section 4).
export async function resolveUser(ctx: DbContext): Promise<User | null> {
  const userId = ctx.session.userId;
  if (userId) {
    const user = await ctx.em.findOne(User, userId);
    if (user && (!user.isDemo || ctx.deps.config.demoMode)) return user;
  }
  if (!ctx.deps.config.demoMode) return null;
  return ctx.em.findOne(User, { id: demoUserId, isDemo: true });
}
