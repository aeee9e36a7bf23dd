import type { Context } from '../../trpc/context.js';

// Deletes the server-side session: the cookie, wherever it was copied, no longer signs anyone in.
export async function logout(ctx: Context) {
  await ctx.session.end();
  return { success: true as const };
}
