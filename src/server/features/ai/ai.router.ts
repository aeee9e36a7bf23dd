import { aiCompletionSchema } from '../../../shared/schemas/ai.js';
import { router } from '../../trpc/init.js';
import { completeChat, streamChat } from './completeChat.js';
import { modelProcedure } from './modelProcedure.js';

export const aiRouter = router({
  complete: modelProcedure.input(aiCompletionSchema).mutation(({ ctx, input, signal }) => completeChat(ctx, input, signal)),
  /** The reply as a stream of deltas (REST SSE, or tRPC's httpBatchStreamLink). */
  stream: modelProcedure.input(aiCompletionSchema).mutation(({ ctx, input, signal }) => streamChat(ctx, input, signal)),
});
