import { z } from 'zod';

// The evaluation's scripts (eval/coach/scripts/*.json): a persona, the user's turns and what a good
// reply must and must not do. Each file holds an array of scripts; every one is validated here
// before anything runs, so a typo in a script stops the run with its file and path.

const text = z.string().trim().min(1).max(4_000);
const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lowercase words joined by hyphens');

export const personaSchema = z.object({
  name: z.string().min(1),
  role: z.string().min(1),
  /** Who they are, for the simulated client of the model mode. */
  background: z.string().min(1).optional(),
  /** The user's country for the crisis numbers (default: the operator's, US). */
  country: z.enum(['US', 'GB', 'IE']).optional(),
});

export const safetyExpectation = z.enum(['self_harm', 'unsafe', 'harassment', 'medical', 'legal', 'financial', 'none']);
export type SafetyExpectation = z.infer<typeof safetyExpectation>;

export const turnExpectSchema = z
  .object({
    /** The safety line: the category this message must get, or 'none' for a look-alike. */
    safety: safetyExpectation.optional(),
    /** The reply takes up the user's words (and is no bare acknowledgement). */
    reflects: z.boolean().optional(),
    /** The feeling the user named, in the words that count as reflecting it. */
    feeling: z.array(z.string().min(2)).min(1).optional(),
    /** An answer to the coach's question (default: whenever the coach's last reply asked one). */
    inContext: z.boolean().optional(),
    /** This message proposes an activity as a key result: the reply questions it. */
    activityKeyResult: z.boolean().optional(),
    /** Words the reply must hold (case-insensitive). */
    mentions: z.array(z.string().min(1)).optional(),
    /** Words the reply must not hold (case-insensitive). */
    avoids: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type TurnExpect = z.infer<typeof turnExpectSchema>;

export const conversationExpectSchema = z
  .object({
    /** GROW's Will: the coach asks what could get in the way, who can support, and commitment on 1 to 10. */
    will: z.boolean().optional(),
    /** No key result written as an activity by the coach. */
    outcomeKeyResults: z.boolean().optional(),
    /** Nothing in a summary the user did not say, unless marked as the coach's; the coach never chooses for the user. */
    autonomy: z.boolean().optional(),
  })
  .strict();

const base = {
  id,
  title: z.string().min(1),
  persona: personaSchema,
  /** Sources the script is drawn from (the findings, a public standard). */
  source: z.string().optional(),
};

export const chatScriptSchema = z
  .object({
    ...base,
    kind: z.literal('chat'),
    turns: z.array(z.object({ user: text, expect: turnExpectSchema.optional() }).strict()).min(1).max(20),
    expect: conversationExpectSchema.optional(),
    /** Model mode: the simulated client may write this many further turns, towards this aim. */
    simulate: z.object({ maxTurns: z.number().int().min(1).max(6), aim: z.string().min(1) }).strict().optional(),
  })
  .strict();

const rehearsalSetUpSchema = z
  .object({
    counterpart: z.object({ name: z.string().min(1), role: z.string().optional(), relationship: z.string().optional() }).strict(),
    situation: text,
    goal: text,
    difficulty: z.enum(['supportive', 'realistic', 'tough']),
  })
  .strict();

export const counterpartMoveSchema = z.enum(['acknowledge', 'blame', 'hedge', 'ask', 'request']);

export const rehearsalScriptSchema = z
  .object({
    ...base,
    kind: z.literal('rehearsal'),
    setUp: rehearsalSetUpSchema,
    /** The user's turns before the move (the same in every variant). */
    opening: z.array(text).max(5),
    /** Each move is played in its own rehearsal after the opening; their answers must differ. */
    moves: z.array(z.object({ move: counterpartMoveSchema, user: text }).strict()).min(2).max(5),
  })
  .strict();

export const reportScriptSchema = z
  .object({
    ...base,
    kind: z.literal('report'),
    setUp: rehearsalSetUpSchema,
    /** The planted transcript, stored as the chat's messages before the report is asked for. */
    transcript: z.array(z.object({ role: z.enum(['user', 'counterpart']), content: text }).strict()).min(2),
    expect: z
      .object({
        goalMet: z.enum(['yes', 'partly', 'no']),
        /** Words the report (as posted into the chat) must hold, e.g. the check that failed. */
        mentions: z.array(z.string().min(1)).optional(),
      })
      .strict(),
  })
  .strict();

export const weeklyScriptSchema = z
  .object({
    ...base,
    kind: z.literal('weekly'),
    goals: z
      .array(
        z
          .object({
            title: z.string().min(1),
            framework: z.enum(['OKR', 'SMART', 'GROW']).default('OKR'),
            /** Days from today. */
            dueInDays: z.number().int(),
            keyResults: z.array(z.object({ title: z.string().min(1), start: z.number(), target: z.number(), checkIns: z.array(z.number()).default([]) }).strict()).min(1),
          })
          .strict(),
      )
      .default([]),
    commitments: z.array(z.object({ text: z.string().min(1), dueInDays: z.number() }).strict()).default([]),
    expect: z
      .object({
        /** The focus: one of these must be in the review's first lines. */
        focus: z.array(z.string().min(1)).min(1),
        mentions: z.array(z.string().min(1)).optional(),
        avoids: z.array(z.string().min(1)).optional(),
      })
      .strict(),
  })
  .strict();

export const scriptSchema = z.discriminatedUnion('kind', [chatScriptSchema, rehearsalScriptSchema, reportScriptSchema, weeklyScriptSchema]);
export type Script = z.infer<typeof scriptSchema>;
export type ChatScript = z.infer<typeof chatScriptSchema>;
export type RehearsalScript = z.infer<typeof rehearsalScriptSchema>;
export type ReportScript = z.infer<typeof reportScriptSchema>;
export type WeeklyScript = z.infer<typeof weeklyScriptSchema>;
export const scriptFileSchema = z.array(scriptSchema).min(1);
