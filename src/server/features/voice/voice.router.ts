import { synthesizeSchema, transcribeAudioSchema, transcribeSchema, voiceAudioTurnSchema, voiceHeardSchema, voiceKeepSchema, voiceTurnSchema } from '../../../shared/schemas/voice.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { synthesize } from './synthesize.js';
import { transcribe, voiceReady } from './transcribe.js';
import { claimUploadBudget, reserveUploadBudget, speechVoiceFor, takeVoiceBudget, voiceProcedure } from './voiceBudget.js';
import { voiceAudioTurn, voiceHeard, voiceKeep, voiceTurn } from './voiceTurn.js';

export const voiceRouter = router({
  /** Asked before an upload's body is read: the caller is known and voice is configured. */
  ready: protectedProcedure.query(({ ctx }) => voiceReady(ctx)),
  /** Before an upload's body is read: voice is configured, and the upload's budget is taken (429 when spent). */
  reserveUpload: protectedProcedure.mutation(async ({ ctx }) => {
    voiceReady(ctx);
    await reserveUploadBudget(ctx);
    return { reserved: true as const };
  }),
  /** Gives back a reserved upload's budget when the upload is refused before it reaches a procedure (413, 415). */
  releaseUpload: protectedProcedure.mutation(async ({ ctx }) => {
    await claimUploadBudget(ctx)?.refund();
    return { released: true as const };
  }),
  transcribe: voiceProcedure.input(transcribeSchema).mutation(({ ctx, input, signal }) => transcribe(ctx, input, signal)),
  /** A binary upload (POST /api/voice/transcribe with audio/* or multipart). */
  transcribeAudio: voiceProcedure.input(transcribeAudioSchema).mutation(({ ctx, input, signal }) => transcribe(ctx, input, signal)),
  /** Audio chunks as they come from the provider (streamed by POST /api/voice/synthesize). */
  synthesize: protectedProcedure.input(synthesizeSchema).mutation(async ({ ctx, input, signal }) => {
    // A voice reply's sentence under its turn's allowance, or a request with a budget of its own.
    const turn = await takeVoiceBudget(ctx, input.allowance, input.text);
    try {
      return await synthesize(ctx, { ...input, voice: speechVoiceFor(ctx, input.voice, input.allowance) }, signal);
    } catch (error) {
      await turn.refund();
      throw error;
    }
  }),
  /** One spoken turn: the reply's tokens as the model writes them (streamed by POST /api/voice/turn). */
  turn: protectedProcedure.input(voiceTurnSchema).mutation(({ ctx, input, signal }) => voiceTurn(ctx, input, signal)),
  /** One spoken turn from the recording: transcribed, then answered as `turn` (POST /api/voice/turn with audio/*). */
  audioTurn: protectedProcedure.input(voiceAudioTurnSchema).mutation(({ ctx, input, signal }) => voiceAudioTurn(ctx, input, signal)),
  heard: protectedProcedure.input(voiceHeardSchema).mutation(({ ctx, input }) => voiceHeard(ctx, input)),
  /** Saves a provisional turn once the user's turn has ended (POST /api/voice/keep). */
  keep: protectedProcedure.input(voiceKeepSchema).mutation(({ ctx, input }) => voiceKeep(ctx, input)),
});
