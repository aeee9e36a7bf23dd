import { TRPCError } from '@trpc/server';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { ProviderError } from '../../providers/ai/types.js';
import { voiceProviderOf } from './voiceProvider.js';

export async function transcribe(ctx: { deps: AppDeps }, input: { audioBlob: Buffer }, signal?: AbortSignal) {
  const voice = voiceProviderOf(ctx.deps);
  try {
    const transcription = await voice.transcribe(input.audioBlob, signal);
    return { success: true as const, transcription: transcription.trim() };
  } catch (error) {
    if (error instanceof ProviderError) throw new TRPCError({ code: 'BAD_GATEWAY', message: voiceTexts.transcriptionError, cause: error });
    throw error;
  }
}
