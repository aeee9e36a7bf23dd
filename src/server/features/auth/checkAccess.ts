import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { authTexts } from '../../../shared/texts/index.js';
import type { Context } from '../../trpc/context.js';

// The access-key gate (SPEC section 7): the key travels in the x-access-key header.
export async function checkAccess(ctx: Context, accessKey: string | undefined) {
  const expected = ctx.deps.config.accessKey;
  if (!expected) throw new TRPCError({ code: 'FORBIDDEN', message: authTexts.accessKeyNotEnabled });
  if (!accessKey || !constantTimeEqual(accessKey, expected)) {
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
