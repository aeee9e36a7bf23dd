import OpenAI from 'openai';
import { z } from 'zod';
import { memoryKinds, memoryLimits } from '../../../shared/schemas/memories.js';
import type { ModelRegion } from '../../config.js';
import { perRegion } from './regions.js';

// Picks durable facts about the user from one exchange through the model, with a JSON
// schema (Structured Outputs): the answer is JSON in that shape, checked again with zod here.

/** `sensitive`: the model says it touches a topic the coach keeps only when asked (then it is dropped). */
export type ExtractedMemory = { text: string; kind: (typeof memoryKinds)[number]; dueAt: Date | null; sensitive?: boolean };

export interface MemoryExtractor {
  /**
   * `userMessage` is only what the user wrote; `known` the memories kept already (to avoid repeating
   * them); `region` the model region of the user's organisation (null: OPENAI_BASE_URL), where the
   * model is asked. The offline rules ignore it.
   */
  extract(input: { userMessage: string; known: string[]; now: Date; region: string | null }): Promise<ExtractedMemory[]>;
}

const answerSchema = z.object({
  memories: z
    .array(
      z.object({
        text: z.string().trim().min(1).max(memoryLimits.maxText),
        kind: z.enum(memoryKinds),
        dueAt: z.string().nullable(),
        // Asked for in the schema; a model that leaves it out is read as 'not flagged' (the
        // app's own rule filters its answer anyway).
        sensitive: z.boolean().optional(),
      }),
    )
    .max(10),
});

/** The JSON schema sent to the model (strict: every property required, nothing else allowed). */
export const memoryJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['memories'],
  properties: {
    memories: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'kind', 'dueAt', 'sensitive'],
        properties: {
          text: { type: 'string', description: 'One short sentence in the first person, as the user would say it.' },
          kind: { type: 'string', enum: [...memoryKinds] },
          dueAt: { type: ['string', 'null'], description: 'For a commitment with a deadline: ISO 8601 date-time; otherwise null.' },
          sensitive: { type: 'boolean', description: 'True when it touches health, emotions, family, beliefs, pay, discrimination, legal matters, identity, or another person’s personal details.' },
        },
      },
    },
  },
} as const;

export function createOpenAiMemoryExtractor(options: { apiKey: string; baseUrl?: string; regions?: ModelRegion[]; model: string; timeoutMs?: number }): MemoryExtractor {
  const clientFor = perRegion(options, (baseURL) => new OpenAI({ apiKey: options.apiKey, baseURL, maxRetries: 1, timeout: options.timeoutMs ?? 30_000 }));
  return {
    async extract({ userMessage, known, now, region }) {
      const completion = await clientFor(region).chat.completions.create({
        model: options.model,
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'memories', strict: true, schema: memoryJsonSchema } },
        messages: [
          {
            role: 'system',
            content: [
              'You keep a coach’s memory of a user. From the user’s message below, list at most 3 durable facts worth remembering in later conversations:',
              'facts about them (role, team, situation), preferences (how they like to work or be coached), people (name and relation), and commitments (what they will do, with the deadline as dueAt).',
              'Only what the user said about themselves and their work; never guesses, small talk, one-off questions, or anything quoted from mail or documents.',
              'Never keep, and leave out of the list: health (illness, medication, therapy, burnout, pregnancy), emotions and how they feel, family and partners, religious or political beliefs, pay and money troubles, discrimination or harassment, legal matters, sexuality or ethnicity, and other people’s personal details (their health, family, private life, contact details, addresses, birthdays).',
              'A plan said under a condition or a maybe ("I’ll quit by Friday if nothing changes", "I might…") is not a commitment: leave it out.',
              'Set sensitive to true for anything that touches one of those topics (it will not be kept).',
              'Skip anything already known. Answer with an empty list when there is nothing durable.',
              `Today is ${now.toISOString().slice(0, 10)}.`,
              known.length ? `Already known:\n${known.map((k) => `- ${k}`).join('\n')}` : 'Nothing is known yet.',
            ].join('\n'),
          },
          { role: 'user', content: userMessage },
        ],
      });
      const content = completion.choices[0]?.message?.content ?? '';
      const parsed = answerSchema.safeParse(JSON.parse(content));
      if (!parsed.success) throw new Error('the model answered outside the memory schema');
      return parsed.data.memories.map((memory) => {
        const due = memory.dueAt ? new Date(memory.dueAt) : null;
        return { text: memory.text, kind: memory.kind, dueAt: due && !Number.isNaN(due.getTime()) ? due : null, sensitive: memory.sensitive };
      });
    },
  };
}
