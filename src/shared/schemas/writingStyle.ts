import { z } from 'zod';
import { writingStyleLimits } from '../constants.js';
import { writingStyleTexts } from '../texts/index.js';

// The writing style router's inputs and the profile's shape (the product spec's entities), shared by the
// server, the page, the chat panel and the local-storage mirror.

export const audienceValues = ['internal', 'external'] as const;
export type Audience = (typeof audienceValues)[number];

export const generateEmailSchema = z.object({
  topic: z
    .string({ message: writingStyleTexts.promptRequiredBody })
    .trim()
    .min(1, writingStyleTexts.promptRequiredBody)
    .max(writingStyleLimits.topicMax, writingStyleTexts.topicTooLong(writingStyleLimits.topicMax))
    // NUL and lone surrogates are not text a person typed.
    .refine((value) => !/[\u0000]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value), {
      message: writingStyleTexts.promptRequiredBody,
    }),
  audience: z.enum(audienceValues, { message: writingStyleTexts.chooseAudience }),
});
export type GenerateEmailInput = z.input<typeof generateEmailSchema>;

export const toneSourceValues = ['model', 'markers'] as const;
export type ToneSource = (typeof toneSourceValues)[number];

export const writingStyleSchema = z.object({
  tone: z.string().nullable(),
  toneSource: z.enum(toneSourceValues),
  commonPhrases: z.array(z.string()),
  greeting: z.string().nullable(),
  signOff: z.string().nullable(),
  structure: z.string().nullable(),
  length: z.string().nullable(),
  lastUpdated: z.string(),
  emailsAnalyzed: z.number().int().nonnegative(),
});
export type WritingStyle = z.infer<typeof writingStyleSchema>;

/** GET /api/writing-analysis/writing-style */
export type WritingStyleResponse = {
  success: true;
  hasWritingStyle: boolean;
  writingStyle: WritingStyle | null;
  lastUpdated: string | null;
  message: string;
  /** Whether Microsoft mail is connected: the chat's review reminder only shows then. */
  mailConnected: boolean;
};

/** GET /api/writing-analysis/sent-emails */
export type SentEmailsResponse = { success: true; count: number; message: string };

/** POST /api/writing-analysis/analyze-style */
export type AnalyzeStyleResponse = { success: true; writingStyle: WritingStyle; emailsAnalyzed: number; message: string };

export type GeneratedEmail = { email: string; writer: 'model' | 'offline' };
