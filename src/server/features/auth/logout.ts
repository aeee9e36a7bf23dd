import type { Context } from '../../trpc/context.js';

export async function logout(ctx: Context) {
  ctx.session.destroy();
  return { success: true as const };
}
