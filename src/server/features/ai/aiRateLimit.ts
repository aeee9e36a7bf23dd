import { TRPCError } from '@trpc/server';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { coachTexts } from '../../../shared/texts/coach.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';

// Requests to the model endpoint, per user and minute. The budget belongs to one running app
// (tests start several), so each AppDeps gets its own limiter.
export const aiRequestsPerMinute = 30;

const limiters = new WeakMap<AppDeps, RateLimiterMemory>();

/** The cause of a TOO_MANY_REQUESTS error: how long to wait (sent as Retry-After). */
export class RateLimitExceeded extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited for ${retryAfterSeconds}s`);
  }
}

export async function consumeAiRequest(ctx: { deps: AppDeps; user: User; clientIp: string }): Promise<void> {
  let limiter = limiters.get(ctx.deps);
  if (!limiter) {
    limiter = new RateLimiterMemory({ points: aiRequestsPerMinute, duration: 60 });
    limiters.set(ctx.deps, limiter);
  }
  // Every visitor in demo mode is the same demo user: count them by address instead.
  const key = ctx.user.isDemo ? `demo:${ctx.clientIp}` : `user:${ctx.user.id}`;
  try {
    await limiter.consume(key);
  } catch (result) {
    if (!(result instanceof RateLimiterRes)) throw result;
    const seconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: coachTexts.rateLimited(seconds), cause: new RateLimitExceeded(seconds) });
  }
}
