import { synthesizeSchema, transcribeSchema, voiceTurnSchema } from '../../../shared/schemas/voice.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { modelProcedure } from '../ai/modelProcedure.js';
import { synthesize } from './synthesize.js';
import { transcribe } from './transcribe.js';
import { voiceTurn } from './voiceTurn.js';

export const voiceRouter = router({
  transcribe: protectedProcedure.input(transcribeSchema).mutation(({ ctx, input, signal }) => transcribe(ctx, input, signal)),
  /** Audio chunks as they come from the provider (streamed by POST /api/voice/synthesize). */
  synthesize: protectedProcedure.input(synthesizeSchema).mutation(({ ctx, input, signal }) => synthesize(ctx, input, signal)),
  /** Asks the model: the same per-minute and daily budgets as a chat message. */
  turn: modelProcedure.input(voiceTurnSchema).mutation(({ ctx, input, signal }) => voiceTurn(ctx, input, signal)),
});
