import { TRPCError } from '@trpc/server';
import type { StreamedAudio } from '../../../shared/schemas/voice.js';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../../deps.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';
import { ProviderError } from '../../providers/ai/contract.js';
import { voiceProviderOf } from './voiceProvider.js';

/**
 * Speech to text: the recording (base64 JSON, a multipart file, or a binary upload streamed as it
 * arrives) to the provider, in the model region of the speaker's organisation.
 */
export async function transcribe(
  ctx: { deps: Pick<AppDeps, 'providers'>; em: EntityManager; user: { id: number } },
  input: { audioBlob: Buffer } | { audio: Blob | StreamedAudio; extension: string },
  signal?: AbortSignal,
) {
  const voice = voiceProviderOf(ctx.deps);
  const audio = 'audio' in input ? { data: input.audio, extension: input.extension } : { data: input.audioBlob, extension: 'webm' };
  // A fork: a voice turn reads what it needs with the request's own manager meanwhile.
  const region = await modelRegionOf(ctx.em.fork(), ctx.user.id);
  try {
    const transcription = await voice.transcribe(audio.data, audio.extension, region, signal);
    return { success: true as const, transcription: transcription.trim() };
  } catch (error) {
    if (error instanceof ProviderError) throw new TRPCError({ code: 'BAD_GATEWAY', message: voiceTexts.transcriptionError, cause: error });
    throw error;
  }
}

/** Whether voice can be used by this caller (the REST upload asks before reading a body). */
export function voiceReady(ctx: { deps: Pick<AppDeps, 'providers'> }) {
  voiceProviderOf(ctx.deps);
  return { ready: true as const };
}
