import { z } from 'zod';
import { voiceTexts } from '../texts/voice.js';

// POST /api/voice/transcribe and /api/voice/synthesize (the product spec's REST calls), and the voice turn.

export const voiceLimits = {
  /** OpenAI's upload limit for transcription. */
  maxAudioBytes: 25 * 1024 * 1024,
  maxSpeechChars: 4096,
  maxTurnChars: 4000,
} as const;

// Base64 is 4 characters per 3 bytes: the longest string that can hold 25 MB, plus a data: prefix.
const maxBase64Chars = Math.ceil(voiceLimits.maxAudioBytes / 3) * 4 + 100;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

export const transcribeSchema = z.object({
  audioBlob: z
    .string({ message: voiceTexts.audioRequired })
    // A data URL (what FileReader gives) is accepted too: only its payload is kept.
    .transform((value) => value.replace(/^data:[\w/.+-]+(;[\w=.+-]+)*;base64,/, '').replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, voiceTexts.audioEmpty)
        .max(maxBase64Chars, voiceTexts.audioTooLarge)
        .refine((value) => value.length % 4 === 0 && base64Pattern.test(value), voiceTexts.audioNotBase64),
    )
    .transform((value) => Buffer.from(value, 'base64'))
    .refine((audio) => audio.byteLength > 0, voiceTexts.audioEmpty)
    .refine((audio) => audio.byteLength <= voiceLimits.maxAudioBytes, voiceTexts.audioTooLarge),
});

/** Audio types a binary upload may have, and the file name the provider is told (by extension). */
export const uploadAudioTypes: Record<string, string> = {
  'audio/webm': 'webm',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'mp4',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/flac': 'flac',
};

/**
 * A binary upload streamed to the provider as it arrives (the REST route's audio/* body, capped
 * as it is read): its type and its bytes, not held whole.
 */
export type StreamedAudio = { type: string; stream: AsyncIterable<Uint8Array> };

export function isStreamedAudio(value: unknown): value is StreamedAudio {
  const candidate = value as Partial<StreamedAudio> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.type === 'string' && typeof candidate.stream?.[Symbol.asyncIterator] === 'function';
}

/** A binary upload (audio/* streamed, or a multipart file), read by the REST route after the caller is known and its budget taken. */
export const transcribeAudioSchema = z.object({
  audio: z
    .custom<Blob | StreamedAudio>((value) => value instanceof Blob || isStreamedAudio(value), { message: voiceTexts.audioRequired })
    .refine((audio) => !(audio instanceof Blob) || audio.size > 0, voiceTexts.audioEmpty)
    .refine((audio) => !(audio instanceof Blob) || audio.size <= voiceLimits.maxAudioBytes, voiceTexts.audioTooLarge),
  extension: z.enum(['webm', 'wav', 'ogg', 'mp3', 'mp4', 'm4a', 'flac']),
});

export const speechVoices = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

export const synthesizeSchema = z.object({
  text: z
    .string({ message: voiceTexts.textRequired })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, voiceTexts.textRequired).max(voiceLimits.maxSpeechChars, voiceTexts.textTooLong(voiceLimits.maxSpeechChars))),
  /**
   * Asked for by name; the server's choice when absent (the coach's voice, OPENAI_SPEECH_VOICE).
   * Under a voice turn's allowance the turn's speaker decides: a rehearsal's other person speaks
   * with OPENAI_COUNTERPART_VOICE whatever is asked.
   */
  voice: z.enum(speechVoices, { message: voiceTexts.unknownVoice }).optional(),
  /** mp3 (the spec's audio blob), or raw 24 kHz 16-bit PCM that the browser call plays as it arrives. */
  format: z.enum(['mp3', 'pcm'], { message: voiceTexts.unknownFormat }).default('mp3'),
  /**
   * A voice turn's speech allowance (its transcript event's `allowance`): the sentences of its
   * reply are then spoken under the turn's daily model turn. Optional; a spent, expired or foreign
   * one is as none.
   */
  allowance: z.string().max(1000).optional(),
});

/** One voice turn: what the user said, answered by the coach and saved in the call's chat. */
export const voiceTurnSchema = z.object({
  /** The call's chat, null for the first turn (the chat is created then). */
  chatId: z.number().int().positive().nullable(),
  text: z
    .string({ message: voiceTexts.turnRequired })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, voiceTexts.turnRequired).max(voiceLimits.maxTurnChars, voiceTexts.turnRequired)),
  /**
   * A speculative turn, started at a short pause before the user's turn has ended: it
   * is not saved by this request. Its `done` carries a `keep` token that POST /api/voice/keep
   * saves once the turn has really ended; a client that leaves before that leaves nothing stored
   * (and, when no token was written yet, its model turn is given back).
   */
  provisional: z.boolean({ message: voiceTexts.provisionalNotBoolean }).default(false),
});

export type VoiceTurnInput = z.input<typeof voiceTurnSchema>;

/**
 * A voice turn sent as the recording itself (POST /api/voice/turn with an audio/* body): the
 * server transcribes it and answers it in one request. The chat and whether the turn is
 * provisional come in the query string (`?chatId=12&provisional=true`), as text.
 */
export const voiceAudioTurnSchema = transcribeAudioSchema.extend({
  chatId: z
    .string({ message: voiceTexts.chatIdNotNumber })
    .regex(/^[1-9]\d{0,15}$/, voiceTexts.chatIdNotNumber)
    .transform(Number)
    .optional()
    .transform((value) => value ?? null),
  provisional: z.enum(['true', 'false'], { message: voiceTexts.provisionalNotBoolean }).default('false').transform((value) => value === 'true'),
});

/** What the user heard of a reply they interrupted: it replaces the stored reply. */
export const voiceHeardSchema = z.object({
  messageId: z.number({ message: voiceTexts.turnNotFound }).int().positive(),
  heard: z.string().max(voiceLimits.maxTurnChars * 4, voiceTexts.heardNotInReply),
});

/** A provisional turn the user did finish: saved with what they heard of it (all of it when absent). */
export const voiceKeepSchema = z.object({
  keep: z.string({ message: voiceTexts.keepInvalid }).min(1, voiceTexts.keepInvalid).max(64_000, voiceTexts.keepInvalid),
  heard: z.string().max(voiceLimits.maxTurnChars * 4, voiceTexts.heardNotInReply).optional(),
});

/** One line of POST /api/voice/turn's stream (application/x-ndjson). A provisional turn's `done` has `keep` and no messageId. */
export type VoiceTurnEvent =
  /**
   * First, when the turn was sent as audio: what the user said, as transcribed ('' when nothing
   * was), and the speech allowance its reply's sentences may be spoken under (POST
   * /api/voice/synthesize's `allowance`).
   */
  | { type: 'transcript'; text: string; allowance?: string }
  | { type: 'token'; text: string }
  /** Last. A turn sent as text carries its reply's speech allowance here (an audio turn's came first). */
  | { type: 'done'; chatId: number | null; messageId: number | null; reply: string; keep?: string; allowance?: string }
  | { type: 'error'; message: string };
