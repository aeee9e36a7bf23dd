import { TRPCError } from '@trpc/server';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { createOpenAiVoice, type VoiceProvider } from '../../providers/voice/openaiVoice.js';

// One speech client per running app, made on first use from its configuration.
const providers = new WeakMap<AppDeps, VoiceProvider>();

/** The voice provider, or a 503 that tells the person why voice is unavailable. */
export function voiceProviderOf(deps: AppDeps): VoiceProvider {
  const { apiKey, baseUrl } = deps.config.openai;
  if (!apiKey) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: voiceTexts.needsProvider });
  let provider = providers.get(deps);
  if (!provider) {
    provider = createOpenAiVoice({ apiKey, baseUrl, ...deps.config.voice });
    providers.set(deps, provider);
  }
  return provider;
}
