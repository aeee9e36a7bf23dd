import { z } from 'zod';
import { aiCompletionSchema } from '../../../shared/schemas/ai.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { completeChat, streamChat } from './completeChat.js';
import { getModel, listModels } from './models.js';
import { modelProcedure } from '../../trpc/modelProcedure.js';

// The OpenAI-compatible API is a key's `chat` scope.
export const aiRouter = router({
  complete: modelProcedure.meta({ keys: ['chat'] }).input(aiCompletionSchema).mutation(({ ctx, input, signal }) => completeChat(ctx, input, signal)),
  /** The reply as a stream of deltas (REST SSE, or tRPC's httpBatchStreamLink). */
  stream: modelProcedure.meta({ keys: ['chat'] }).input(aiCompletionSchema).mutation(({ ctx, input, signal }) => streamChat(ctx, input, signal)),
  models: protectedProcedure.meta({ keys: ['chat'] }).query(({ ctx }) => listModels(ctx)),
  model: protectedProcedure.meta({ keys: ['chat'] }).input(z.object({ id: z.string().min(1).max(200) })).query(({ ctx, input }) => getModel(ctx, input)),
});
