import { voiceTexts } from '../../../shared/texts';
import { nonJsonFailure } from '../../lib/errors';

// POST /api/voice/transcribe and /api/voice/synthesize (SPEC section 7), with the server's
// message kept for the toast.

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

export async function transcribeRecording(recording: Blob, signal: AbortSignal): Promise<string> {
  const res = await fetch('/api/voice/transcribe', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ audioBlob: await blobToBase64(recording) }),
    signal,
  });
  if (!res.ok) throw await failure(res, voiceTexts.transcriptionError);
  const body = (await res.json()) as { transcription: string };
  return body.transcription;
}

export async function synthesizeSpeech(text: string, signal: AbortSignal): Promise<Blob> {
  const res = await fetch('/api/voice/synthesize', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice: 'alloy' }),
    signal,
  });
  if (!res.ok) throw await failure(res, voiceTexts.synthesisError);
  return res.blob();
}
