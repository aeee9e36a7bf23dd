import type { Context } from '../../trpc/context.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// Deletes the server-side session: the cookie, wherever it was copied, no longer signs anyone in.
export async function logout(ctx: Context) {
  if (ctx.session.userId !== undefined && ctx.session.id) await recordSecurityEvent(ctx.deps, requestEvent(ctx, 'sign_out', ctx.session.userId));
  await ctx.session.end();
  return { success: true as const };
}
