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
  /** `extension` names the format for the provider (webm, wav, ogg, mp3...). */
  transcribe(audio: Buffer | Blob, extension: string, signal?: AbortSignal): Promise<string>;
  synthesize(text: string, voice: string, signal?: AbortSignal, format?: 'mp3' | 'pcm'): Promise<SynthesizedSpeech>;
}

export function createOpenAiVoice(config: { apiKey: string; baseUrl: string | undefined } & Config['voice']): VoiceProvider {
  const client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseUrl, maxRetries: 1, timeout: 60_000 });
  return {
    async transcribe(audio, extension, signal) {
      try {
        // OpenAI refuses an upload whose name lacks a known extension (STACK.md).
        const file = await toFile(audio, `speech.${extension}`, { type: audio instanceof Blob && audio.type ? audio.type : `audio/${extension}` });
        const result = await client.audio.transcriptions.create({ file, model: config.transcriptionModel }, { signal });
        return result.text;
      } catch (error) {
        throw toVoiceProviderError(error, config.apiKey);
      }
    },
    async synthesize(text, voice, signal, format = 'mp3') {
      try {
        const response = await client.audio.speech.create(
          { model: config.speechModel, voice, input: text, response_format: format },
          { signal },
        );
        if (!response.body) throw new ProviderError('The speech server sent no audio', { retryable: true });
        // PCM is raw 24 kHz 16-bit mono little-endian samples (OpenAI's pcm format), said so explicitly.
        const contentType = format === 'pcm' ? 'audio/L16;rate=24000;channels=1' : (response.headers.get('content-type') ?? 'audio/mpeg');
        return { contentType, chunks: readChunks(response.body, config.apiKey) };
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
