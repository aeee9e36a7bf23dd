import crypto from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { isStreamedAudio, type StreamedAudio } from '../../../shared/schemas/voice.js';
import { trimEndChars } from '../../../shared/trimText.js';
import type { Config, ModelRegion } from '../../config.js';
import { ProviderError } from '../ai/contract.js';
import { perRegion } from '../ai/regions.js';

// Speech to text and text to speech through the official openai SDK (audio.transcriptions and
// audio.speech), against OpenAI or any compatible server at OPENAI_BASE_URL, or at the base URL of
// the model region (OPENAI_REGIONS) each call names: the speaker's organisation's.

export type SynthesizedSpeech = {
  contentType: string;
  /** The audio as the provider sends it: the first bytes arrive before synthesis ends. */
  chunks: AsyncIterable<Uint8Array>;
};

/**
 * `region`: the model region of the speaker's organisation (OPENAI_REGIONS' name), where the audio
 * or the text is sent; null: OPENAI_BASE_URL. A region not configured is refused (a ProviderError).
 */
export interface VoiceProvider {
  /** `extension` names the format for the provider (webm, wav, ogg, mp3...); streamed audio is sent as it arrives. */
  transcribe(audio: Buffer | Blob | StreamedAudio, extension: string, region: string | null, signal?: AbortSignal): Promise<string>;
  synthesize(text: string, voice: string, region: string | null, signal?: AbortSignal, format?: 'mp3' | 'pcm'): Promise<SynthesizedSpeech>;
}

export function createOpenAiVoice(config: { apiKey: string; baseUrl: string | undefined; regions?: ModelRegion[] } & Config['voice']): VoiceProvider {
  // The SDK's client and the base URL (for a streamed upload, sent without the SDK) of each region.
  const at = perRegion({ baseUrl: config.baseUrl, regions: config.regions }, (baseUrl) => ({
    client: new OpenAI({ apiKey: config.apiKey, baseURL: baseUrl, maxRetries: 1, timeout: 60_000 }),
    baseUrl,
  }));
  return {
    async transcribe(audio, extension, region, signal) {
      try {
        const { client, baseUrl } = at(region);
        if (isStreamedAudio(audio)) return await transcribeStreamed({ ...config, baseUrl }, audio, extension, signal);
        // OpenAI refuses an upload whose name lacks a known extension (STACK.md).
        const file = await toFile(audio, `speech.${extension}`, { type: audio instanceof Blob && audio.type ? audio.type : `audio/${extension}` });
        const result = await client.audio.transcriptions.create({ file, model: config.transcriptionModel }, { signal });
        return result.text;
      } catch (error) {
        throw toVoiceProviderError(error, config.apiKey);
      }
    },
    async synthesize(text, voice, region, signal, format = 'mp3') {
      try {
        const response = await at(region).client.audio.speech.create(
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

/**
 * The SDK holds an upload whole before it sends it; a recording of up to 25 MB is instead sent to
 * /audio/transcriptions as it arrives: the same multipart request (model, then the file named with
 * its extension), its body a stream.
 */
async function transcribeStreamed(config: { apiKey: string; baseUrl: string | undefined } & Config['voice'], audio: StreamedAudio, extension: string, signal?: AbortSignal): Promise<string> {
  const boundary = `----ai-coach-${crypto.randomBytes(12).toString('hex')}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${config.transcriptionModel}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="speech.${extension}"\r\nContent-Type: ${audio.type.replace(/[\r\n"]/g, '')}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for await (const chunk of audio.stream) yield chunk;
    yield tail;
  }
  const baseUrl = trimEndChars(config.baseUrl ?? 'https://api.openai.com/v1', '/');
  const timeout = AbortSignal.timeout(120_000);
  try {
    const response = await fetch(`${baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'application/json' },
      body: pullStream(body()),
      duplex: 'half',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    } as RequestInit & { duplex: 'half' });
    const text = await response.text();
    let parsed: { text?: unknown; error?: { message?: unknown } } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Not JSON: reported by status below.
    }
    if (!response.ok) throw Object.assign(new Error(typeof parsed.error?.message === 'string' ? parsed.error.message : `HTTP ${response.status}`), { status: response.status });
    if (typeof parsed.text !== 'string') throw new ProviderError('The transcription server sent no text', { retryable: true });
    return parsed.text;
  } catch (error) {
    throw toVoiceProviderError(error, config.apiKey);
  }
}

/** A stream that reads `source` only as the request is sent (a slow provider slows the upload). */
function pullStream(source: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await source.return(undefined);
    },
  });
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
