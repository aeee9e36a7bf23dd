import { z } from 'zod';
import { rehearsalTexts } from '../texts/rehearsals.js';
import { meetingIdSchema } from './meetings.js';

// Rehearsal (issue 34). The same schemas validate tRPC, the REST paths and the client's start form.
export const rehearsalDifficulties = ['supportive', 'realistic', 'tough'] as const;
export type RehearsalDifficulty = (typeof rehearsalDifficulties)[number];
export const rehearsalLimits = { maxName: 100, maxRole: 200, maxSituation: 2_000, maxGoal: 500 } as const;

const optionalText = (max: number, message: string) =>
  z
    .string({ message })
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : undefined));

export const counterpartSchema = z.object(
  {
    name: z.string({ message: rehearsalTexts.nameRequired }).trim().min(1, rehearsalTexts.nameRequired).max(rehearsalLimits.maxName, rehearsalTexts.nameRequired),
    role: optionalText(rehearsalLimits.maxRole, rehearsalTexts.roleTooLong),
    relationship: optionalText(rehearsalLimits.maxRole, rehearsalTexts.relationshipTooLong),
  },
  { message: rehearsalTexts.counterpartRequired },
);
export type Counterpart = z.output<typeof counterpartSchema>;

export const createRehearsalSchema = z
  .object({
    counterpart: counterpartSchema.optional(),
    situation: z.string({ message: rehearsalTexts.situationRequired }).trim().min(1, rehearsalTexts.situationRequired).max(rehearsalLimits.maxSituation, rehearsalTexts.situationRequired),
    goal: z.string({ message: rehearsalTexts.goalRequired }).trim().min(1, rehearsalTexts.goalRequired).max(rehearsalLimits.maxGoal, rehearsalTexts.goalRequired),
    difficulty: z.enum(rehearsalDifficulties, { message: rehearsalTexts.difficultyInvalid }),
    meetingId: meetingIdSchema.optional(),
    /** The browser's time zone: dates a demo visitor's sample meeting. */
    timeZone: z.string().max(64).optional(),
  })
  .refine((input) => input.counterpart || input.meetingId, { message: rehearsalTexts.counterpartRequired, path: ['counterpart'] });
export type CreateRehearsalInput = z.input<typeof createRehearsalSchema>;

const id = z.coerce.number({ message: rehearsalTexts.notFound }).int(rehearsalTexts.notFound).positive(rehearsalTexts.notFound).max(2_147_483_647, rehearsalTexts.notFound);
export const rehearsalRefSchema = z.object({ id });
export const retryRehearsalSchema = z.object({
  id,
  fromMessageId: z.coerce
    .number({ message: rehearsalTexts.fromMessageInvalid })
    .int(rehearsalTexts.fromMessageInvalid)
    .positive(rehearsalTexts.fromMessageInvalid)
    .max(2_147_483_647, rehearsalTexts.fromMessageInvalid),
});

// ---- the report

export const goalVerdicts = ['yes', 'partly', 'no'] as const;
export type GoalVerdict = (typeof goalVerdicts)[number];
export const maxJudgedItems = 3;

/** What the model (or the offline coach) judges; validated before it is kept. */
export const judgedReportSchema = z.object({
  goalMet: z.enum(goalVerdicts),
  goalReason: z.string().trim().min(1).max(600),
  strengths: z.array(z.string().trim().min(1).max(300)).max(maxJudgedItems),
  improvements: z.array(z.object({ quote: z.string().trim().min(1).max(600), better: z.string().trim().min(1).max(600) })).max(maxJudgedItems),
});
export type JudgedReport = z.output<typeof judgedReportSchema>;

export type ComputedReport = {
  /** The user's share of the words spoken, 0 to 1. */
  talkRatio: number;
  fillerWords: { count: number; examples: string[] };
  longestTurnWords: number;
  questionsAsked: number;
  userWords: number;
  counterpartWords: number;
};

/** The report: the computed part always; the judged part null when no usable judgement came. */
export type RehearsalReport = ComputedReport & { judged: JudgedReport | null; createdAt: string };
