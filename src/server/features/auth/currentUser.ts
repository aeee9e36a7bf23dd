import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';

/** Whether a session's user may act as itself: any account, the demo account only in demo mode. */
export function sessionUserAllowed(user: { isDemo: boolean }, demoMode: boolean): boolean {
  return !user.isDemo || demoMode;
}

// The signed-in user; without a session, the demo user while DEMO_MODE is on (the product spec's states and transitions).
// A cookie of an ended session signs nobody in, not even the demo user: it answers 401. Nor does
// the session or key of an account the organisation deprovisioned (inactive), on its next request.
export async function resolveUser(ctx: DbContext): Promise<User | null> {
  const userId = ctx.session.userId;
  if (userId) {
    const user = await ctx.em.findOne(User, userId);
    if (user && !user.active) return null;
    if (user && sessionUserAllowed(user, ctx.deps.config.demoMode)) return user;
  }
  if (ctx.session.ended || !ctx.deps.config.demoMode) return null;
  return ctx.em.findOne(User, { isDemo: true });
}
