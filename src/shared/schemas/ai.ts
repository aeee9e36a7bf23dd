import { z } from 'zod';
import { coachTexts } from '../texts/coach.js';

// The OpenAI-compatible chat completion request (POST /api/openai/chat/completions and the
// ai.complete procedure). Only what the coach needs is read; anything else a client sends
// (tools, base URLs, other models' parameters) is dropped, so the endpoint is never an open proxy.

export const aiLimits = {
  maxMessages: 50,
  maxMessageChars: 20_000,
  maxTotalChars: 100_000,
  maxTokens: 4096,
} as const;

// OpenAI clients may send content as a string or as a list of text parts.
const textPart = z.object({ type: z.literal('text'), text: z.string() });

export const aiMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant'], { message: coachTexts.badRole }),
  content: z
    .union([z.string(), z.array(textPart).max(100)], { message: coachTexts.badContent })
    .transform((content) => (typeof content === 'string' ? content : content.map((part) => part.text).join('')))
    .pipe(z.string().max(aiLimits.maxMessageChars, coachTexts.messageTooLong(aiLimits.maxMessageChars))),
});

export const aiCompletionSchema = z.object({
  /** Accepted for compatibility and ignored: the server always answers with its configured model. */
  model: z.string().max(200).nullish(),
  messages: z
    .array(aiMessageSchema, { message: coachTexts.noMessages })
    .min(1, coachTexts.noMessages)
    .max(aiLimits.maxMessages, coachTexts.tooManyMessages(aiLimits.maxMessages))
    .refine(
      (messages) => messages.reduce((total, m) => total + m.content.length, 0) <= aiLimits.maxTotalChars,
      coachTexts.conversationTooLong(aiLimits.maxTotalChars),
    ),
  max_tokens: z.number().int().min(1).max(aiLimits.maxTokens).nullish(),
  /** The newer name of max_tokens; either may be sent. */
  max_completion_tokens: z.number().int().min(1).max(aiLimits.maxTokens).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  /** Picks the answer's format (server-sent events); the procedures answer the same either way. */
  stream: z.boolean().nullish(),
  /** include_usage: a last streamed chunk with the token usage and no choices. */
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

export type AiCompletionInput = z.input<typeof aiCompletionSchema>;
export type AiCompletionRequest = z.output<typeof aiCompletionSchema>;
