import { protectedProcedure } from '../../trpc/init.js';
import type { AuthedContext } from '../../trpc/context.js';
import { consumeModelTurn, takeModelTurn, type ModelTurn } from '../ai/modelQuota.js';

// Paid audio has a budget (issue 22): each transcription and each speech request takes a point of
// RATE_LIMIT_VOICE_PER_MINUTE and one of the day's MODEL_DAILY_QUOTA turns, before the provider
// is asked; a request that fails gives its daily turn back. Refused: 429 with Retry-After.
export const voiceProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const turn = await takeVoiceBudget(ctx);
  const result = await next();
  if (!result.ok) await turn.refund();
  return result;
});

/** Takes the budget of one paid audio request (above); its `refund` gives the day's turn back. */
export async function takeVoiceBudget(ctx: AuthedContext): Promise<ModelTurn> {
  const key = ctx.user.isDemo ? `demo:${ctx.clientIp}` : `user:${ctx.user.id}`;
  await ctx.deps.rateLimits.voice.consume(key);
  await consumeModelTurn(ctx);
  return takeModelTurn(ctx);
}
