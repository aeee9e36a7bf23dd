import { z } from 'zod';
import { voiceTexts } from '../texts/voice.js';

// POST /api/voice/transcribe and /api/voice/synthesize (SPEC section 7), and the voice turn.

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

export const speechVoices = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

export const synthesizeSchema = z.object({
  text: z
    .string({ message: voiceTexts.textRequired })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, voiceTexts.textRequired).max(voiceLimits.maxSpeechChars, voiceTexts.textTooLong(voiceLimits.maxSpeechChars))),
  voice: z.enum(speechVoices, { message: voiceTexts.unknownVoice }).default('alloy'),
});

/** One voice turn: what the user said, answered by the coach and saved in the call's chat. */
export const voiceTurnSchema = z.object({
  /** The call's chat, null for the first turn (the chat is created then). */
  chatId: z.number().int().positive().nullable(),
  text: z
    .string({ message: voiceTexts.turnRequired })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, voiceTexts.turnRequired).max(voiceLimits.maxTurnChars, voiceTexts.turnRequired)),
});

export type VoiceTurnInput = z.input<typeof voiceTurnSchema>;
