import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { authTexts } from '../../../shared/texts/index.js';
import type { Context } from '../../trpc/context.js';

// The access-key gate (SPEC section 7): the key travels in the x-access-key header.
export async function checkAccess(ctx: Context, accessKey: string | undefined) {
  const expected = ctx.deps.config.accessKey;
  if (!expected) throw new TRPCError({ code: 'FORBIDDEN', message: authTexts.accessKeyNotEnabled });
  // Wrong keys count as failed logins of one pseudo-account per address, so guessing is slowed.
  const throttleKey = `access-key:${ctx.clientIp}`;
  const wait = await ctx.deps.loginThrottle.retryAfterSeconds(throttleKey, ctx.clientIp);
  if (wait > 0) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: authTexts.tooManyAttempts(Math.ceil(wait / 60)) });
  if (!accessKey || !constantTimeEqual(accessKey, expected)) {
    await ctx.deps.loginThrottle.recordFailure(throttleKey, ctx.clientIp);
    throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.invalidAccessKey });
  }
  return { success: true as const };
}

function constantTimeEqual(a: string, b: string): boolean {
  // Compare digests so that neither the content nor the length leaks through timing.
  const da = crypto.createHash('sha256').update(a).digest();
  const db = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(da, db);
}
