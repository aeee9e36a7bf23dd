import { TRPCError } from '@trpc/server';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import type { VoiceProvider } from '../../providers/voice/openaiVoice.js';

/** The voice provider (built by compose.ts), or a 412 that tells the person why voice is unavailable. */
export function voiceProviderOf(deps: Pick<AppDeps, 'providers'>): VoiceProvider {
  const { voice } = deps.providers;
  if (!voice) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: voiceTexts.needsProvider });
  return voice;
}
