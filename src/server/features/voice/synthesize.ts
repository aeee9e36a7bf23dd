import { TRPCError } from '@trpc/server';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../../deps.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';
import { ProviderError } from '../../providers/ai/contract.js';
import { voiceProviderOf } from './voiceProvider.js';

/** The spoken text as audio chunks, passed on as the provider sends them; made in the model region of the speaker's organisation. */
export async function synthesize(ctx: { deps: Pick<AppDeps, 'providers'>; em: EntityManager; user: { id: number } }, input: { text: string; voice: string; format?: 'mp3' | 'pcm' }, signal?: AbortSignal) {
  const voice = voiceProviderOf(ctx.deps);
  const region = await modelRegionOf(ctx.em, ctx.user.id);
  try {
    const speech = await voice.synthesize(input.text, input.voice, region, signal, input.format);
    return { contentType: speech.contentType, chunks: withPublicErrors(speech.chunks) };
  } catch (error) {
    throw publicError(error);
  }
}

async function* withPublicErrors(chunks: AsyncIterable<Uint8Array>) {
  try {
    yield* chunks;
  } catch (error) {
    throw publicError(error);
  }
}

function publicError(error: unknown) {
  if (error instanceof ProviderError) return new TRPCError({ code: 'BAD_GATEWAY', message: voiceTexts.synthesisError, cause: error });
  return error;
}
