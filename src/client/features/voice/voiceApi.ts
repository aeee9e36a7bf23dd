import type { VoiceTurnEvent } from '../../../shared/schemas/voice';
import { voiceTexts } from '../../../shared/texts';
import { nonJsonFailure } from '../../lib/errors';

// POST /api/voice/transcribe, /api/voice/synthesize (the product spec's REST calls), /api/voice/turn and
// /api/voice/heard, with the server's message kept for the toast.

export class VoiceRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(res: Response, fallback: string): Promise<VoiceRequestError> {
  const notJson = await nonJsonFailure(res);
  if (notJson) return new VoiceRequestError(res.status, notJson.message);
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  return new VoiceRequestError(res.status, body?.message ?? fallback);
}

export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The recording as binary audio (no base64, read only once the caller is known). */
export async function transcribeRecording(recording: Blob, signal: AbortSignal): Promise<string> {
  const res = await fetch('/api/voice/transcribe', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': (recording.type || 'audio/webm').split(';')[0]! },
    body: recording,
    signal,
  });
  if (!res.ok) throw await failure(res, voiceTexts.transcriptionError);
  const body = (await res.json()) as { transcription: string };
  return body.transcription;
}

/**
 * A sentence's speech as raw 24 kHz PCM, streamed (StreamedSpeech plays it as it arrives); with
 * the turn's speech allowance, it is spoken under the turn's own daily model turn.
 */
export function fetchSpeech(text: string, signal: AbortSignal, allowance?: string): Promise<Response> {
  return fetch('/api/voice/synthesize', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice: 'alloy', format: 'pcm', ...(allowance ? { allowance } : {}) }),
    signal,
  });
}

/**
 * One spoken turn: `onToken` gets the reply as the model writes it; resolves with the saved turn.
 * Given the recording (`audio`) instead of the text, the server transcribes it first, in the same
 * request, and `onTranscript` gets what was said ('' for nothing: the turn then ends with an
 * empty reply) and the allowance its reply's speech is requested under. Throws VoiceRequestError for a refusal (429 with the server's message), a failed
 * transcription (before `onTranscript`) or a failed model.
 */
export async function streamTurn(
  input: { chatId: number | null; provisional?: boolean } & ({ text: string } | { audio: Blob }),
  handlers: { onToken: (text: string) => void; onTranscript?: (text: string, allowance?: string) => void },
  signal: AbortSignal,
): Promise<{ chatId: number | null; messageId: number | null; reply: string; keep?: string }> {
  let res: Response;
  if ('audio' in input) {
    const query = new URLSearchParams({ provisional: String(input.provisional ?? false) });
    if (input.chatId !== null) query.set('chatId', String(input.chatId));
    res = await fetch(`/api/voice/turn?${query}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': (input.audio.type || 'audio/webm').split(';')[0]! },
      body: input.audio,
      signal,
    });
  } else {
    res = await fetch('/api/voice/turn', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal,
    });
  }
  if (!res.ok || !res.body) throw await failure(res, voiceTexts.aiError);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const event = JSON.parse(buffered.slice(0, newline)) as VoiceTurnEvent;
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      if (event.type === 'token') handlers.onToken(event.text);
      else if (event.type === 'transcript') handlers.onTranscript?.(event.text, event.allowance);
      else if (event.type === 'done') return event;
      else throw new VoiceRequestError(502, event.message);
    }
  }
  throw new VoiceRequestError(502, voiceTexts.aiError);
}

/** Saves a provisional turn (its `keep` token) once the user's turn has ended. */
export async function keepTurn(keep: string): Promise<{ chatId: number | null; messageId: number | null }> {
  const res = await fetch('/api/voice/keep', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ keep }),
  });
  if (!res.ok) throw await failure(res, voiceTexts.aiError);
  return (await res.json()) as { chatId: number; messageId: number | null };
}

/** What the user heard of the reply they interrupted: stored instead of the whole reply. */
export async function storeHeard(messageId: number, heard: string): Promise<void> {
  await fetch('/api/voice/heard', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messageId, heard }),
  });
}
