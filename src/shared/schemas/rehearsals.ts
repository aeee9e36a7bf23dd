import { z } from 'zod';
import { rehearsalTexts } from '../texts/rehearsals.js';
import { meetingIdSchema } from './meetings.js';

// Rehearsal. The same schemas validate tRPC, the REST paths and the client's start form.
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

/** The rubric's checks (src/shared/rehearsalChecks.ts), by name. */
export const checkNameValues = ['purpose', 'pushbacks', 'judgement', 'request', 'hedges'] as const;
export type CheckName = (typeof checkNameValues)[number];
export type CheckStatus = 'passed' | 'failed' | 'not_applicable';

/** One check of the report, with the user's turn it points at (1 = their first turn) and its words. */
export type RehearsalCheck = {
  name: CheckName;
  status: CheckStatus;
  userTurn: number | null;
  /** The chat message of that turn, where known: 'Try again from here' starts from it. */
  messageId: number | null;
  quote: string | null;
  /** pushbacks: how many the other person made (answered by a later turn), and how many were acknowledged. */
  pushbacks?: number;
  acknowledged?: number;
  /** judgement: the judgement words; hedges: the hedges inside the request. */
  words?: string[];
  /** request: who is to do it and by when, as said. */
  owner?: string | null;
  date?: string | null;
};
export type ReportChecks = Record<CheckName, RehearsalCheck>;
/** The first of the user's turns a failed check points at. */
export type WentWrong = { check: CheckName; userTurn: number; messageId: number | null; quote: string };
/** Passed when no check failed; otherwise the first failed check in the rubric's order, and all of them. */
export type Verdict = { passed: boolean; failedCheck: CheckName | null; failedChecks: CheckName[] };

/** A model judge's citation: a check of the rubric, its result, and the transcript line it rests on. */
export const citationSchema = z.object({
  check: z.enum(checkNameValues),
  passed: z.boolean(),
  /** The line of the transcript, as numbered for the judge (1 = the first turn). */
  turn: z.number().int().min(1).max(10_000),
  quote: z.string().trim().min(1).max(600),
});
export type Citation = z.output<typeof citationSchema>;

/** What the model (or the offline coach) judges; validated before it is kept. */
export const judgedReportSchema = z.object({
  goalMet: z.enum(goalVerdicts),
  goalReason: z.string().trim().min(1).max(600),
  strengths: z.array(z.string().trim().min(1).max(300)).max(maxJudgedItems),
  improvements: z.array(z.object({ quote: z.string().trim().min(1).max(600), better: z.string().trim().min(1).max(600) })).max(maxJudgedItems),
  /** The model judge's citations of the transcript, one or more per check (none from the offline judgement). */
  citations: z.array(citationSchema).max(20).optional(),
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
export type RehearsalReport = ComputedReport & {
  /** The rubric's checks, where it went wrong and the verdict (absent from reports written before the checks). */
  checks?: ReportChecks;
  wentWrong?: WentWrong | null;
  verdict?: Verdict;
  judged: JudgedReport | null;
  createdAt: string;
};
