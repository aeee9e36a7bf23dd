import OpenAI, { toFile } from 'openai';
import type { Config } from '../../config.js';
import { ProviderError } from '../ai/types.js';

// Speech to text and text to speech through the official openai SDK (audio.transcriptions and
// audio.speech), against OpenAI or any compatible server at OPENAI_BASE_URL.

export type SynthesizedSpeech = {
  contentType: string;
  /** The audio as the provider sends it: the first bytes arrive before synthesis ends. */
  chunks: AsyncIterable<Uint8Array>;
};

export interface VoiceProvider {
  transcribe(audio: Buffer, signal?: AbortSignal): Promise<string>;
  synthesize(text: string, voice: string, signal?: AbortSignal): Promise<SynthesizedSpeech>;
}

export function createOpenAiVoice(config: { apiKey: string; baseUrl: string | undefined } & Config['voice']): VoiceProvider {
  const client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseUrl, maxRetries: 1, timeout: 60_000 });
  return {
    async transcribe(audio, signal) {
      try {
        // OpenAI refuses an upload whose name lacks a known extension (STACK.md).
        const file = await toFile(audio, 'speech.webm', { type: 'audio/webm' });
        const result = await client.audio.transcriptions.create({ file, model: config.transcriptionModel }, { signal });
        return result.text;
      } catch (error) {
        throw toVoiceProviderError(error, config.apiKey);
      }
    },
    async synthesize(text, voice, signal) {
      try {
        const response = await client.audio.speech.create(
          { model: config.speechModel, voice, input: text, response_format: 'mp3' },
          { signal },
        );
        if (!response.body) throw new ProviderError('The speech server sent no audio', { retryable: true });
        return { contentType: response.headers.get('content-type') ?? 'audio/mpeg', chunks: readChunks(response.body, config.apiKey) };
      } catch (error) {
        throw toVoiceProviderError(error, config.apiKey);
      }
    },
  };
}

async function* readChunks(body: ReadableStream<Uint8Array>, apiKey: string): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.byteLength) yield value;
    }
  } catch (error) {
    throw toVoiceProviderError(error, apiKey);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function toVoiceProviderError(error: unknown, apiKey: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = (error as { status?: unknown }).status;
  const raw = error instanceof Error ? error.message : String(error);
  const detail = raw.split(apiKey).join('[redacted]').replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-[redacted]').slice(0, 300);
  return new ProviderError(`The voice server failed${typeof status === 'number' ? ` (${status})` : ''}: ${detail}`, {
    status: typeof status === 'number' ? status : undefined,
    retryable: typeof status !== 'number' || status === 429 || status >= 500,
  });
}
