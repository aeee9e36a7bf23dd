import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { rateLimitAddressKey } from '../limits/index.js';

// Every call costs money and rings a real phone: a few per user in ten minutes (the `calls` limit
// of rateLimits.ts, shared by every instance on PostgreSQL). Demo visitors all share the demo
// user, so they are counted by address.
export async function consumeCallRequest(ctx: { deps: Pick<AppDeps, 'rateLimits'>; user: User; clientIp: string }): Promise<void> {
  const key = ctx.user.isDemo ? `demo:${rateLimitAddressKey(ctx.clientIp)}` : `user:${ctx.user.id}`;
  await ctx.deps.rateLimits.calls.consume(key);
}
