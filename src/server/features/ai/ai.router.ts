import { aiCompletionSchema } from '../../../shared/schemas/ai.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { consumeAiRequest } from './aiRateLimit.js';
import { completeChat, streamChat } from './completeChat.js';

// Signed-in users only, and a per-user budget of requests, before anything reaches the model.
const modelProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  await consumeAiRequest(ctx);
  return next();
});

export const aiRouter = router({
  complete: modelProcedure.input(aiCompletionSchema).mutation(({ ctx, input, signal }) => completeChat(ctx, input, signal)),
  /** The reply as a stream of deltas (REST SSE, or tRPC's httpBatchStreamLink). */
  stream: modelProcedure.input(aiCompletionSchema).mutation(({ ctx, input, signal }) => streamChat(ctx, input, signal)),
});
