import { protectedProcedure } from './init.js';
import { consumeAiRequest } from '../features/ai/aiRateLimit.js';
import { takeModelTurn } from '../features/ai/modelQuota.js';

// A procedure that calls the model: signed-in users only, and both budgets (the per-minute
// RATE_LIMIT_CHAT_PER_MINUTE and the daily MODEL_DAILY_QUOTA) are taken before anything reaches
// the model; a call that fails gives its daily turn back. Chat messages take the same budgets in
// sendMessage (REST, tRPC and /ws all pass there).
export const modelProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  await consumeAiRequest(ctx);
  const turn = takeModelTurn(ctx);
  const result = await next();
  if (!result.ok) await turn.refund();
  return result;
});
