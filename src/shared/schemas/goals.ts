import { z } from 'zod';
import { goalTexts } from '../texts/goals.js';

// Goals. The same schemas validate tRPC, REST (/api/goals...) and the client's forms.
export const goalFrameworks = ['SMART', 'OKR', 'GROW'] as const;
export type GoalFramework = (typeof goalFrameworks)[number];
export const goalStatuses = ['not_started', 'on_track', 'at_risk', 'behind', 'done'] as const;
export type GoalStatus = (typeof goalStatuses)[number];
// weekly_call: the weekly reminder also comes as a call from the coach (a profile phone and Twilio needed).
export const reminderCadences = ['weekly', 'weekly_call', 'off'] as const;
export const goalLimits = { maxGoals: 200, maxKeyResults: 10, maxTitle: 200, maxUnit: 40, maxNote: 500 } as const;

const finite = z.number({ message: goalTexts.notANumber }).finite(goalTexts.notANumber).min(-1e12, goalTexts.notANumber).max(1e12, goalTexts.notANumber);
const title = z.string({ message: goalTexts.titleRequired }).trim().min(1, goalTexts.titleRequired).max(goalLimits.maxTitle, goalTexts.titleTooLong);
const isoDate = z.iso.date({ message: goalTexts.dueDateInvalid });
const id = z.coerce.number({ message: goalTexts.notFound }).int(goalTexts.notFound).positive(goalTexts.notFound).max(2_147_483_647, goalTexts.notFound);

export const keyResultInputSchema = z
  .object({
    /** Present when editing a key result that exists; absent for a new one. */
    id: z.number().int().positive().optional(),
    title: z.string({ message: goalTexts.keyResultTitleRequired }).trim().min(1, goalTexts.keyResultTitleRequired).max(goalLimits.maxTitle, goalTexts.titleTooLong),
    start: finite,
    target: finite,
    unit: z.string().trim().max(goalLimits.maxUnit, goalTexts.unitTooLong).default(''),
  })
  .refine((kr) => kr.start !== kr.target, { message: goalTexts.targetEqualsStart, path: ['target'] });
export type KeyResultInput = z.input<typeof keyResultInputSchema>;

export const createGoalSchema = z.object({
  title,
  framework: z.enum(goalFrameworks, { message: goalTexts.unknownFramework }),
  dueDate: isoDate,
  keyResults: z.array(keyResultInputSchema).max(goalLimits.maxKeyResults, goalTexts.tooManyKeyResults).default([]),
  /** The chat the goal came from, when it was saved from the coach. */
  chatId: id.optional(),
  cadence: z.enum(reminderCadences).default('weekly'),
});
export type CreateGoalInput = z.input<typeof createGoalSchema>;

export const goalRefSchema = z.object({ goalId: id });

/**
 * 'full' (the default, and what REST answers): every check-in of every key result. 'latest': only
 * each key result's latest check-in, for a page that lists many goals and loads a goal's history
 * when its chart comes into view (goals.get).
 */
export const listGoalsSchema = z.object({ history: z.enum(['full', 'latest']).default('full') }).default({ history: 'full' });

export const updateGoalSchema = z.object({
  goalId: id,
  title: title.optional(),
  dueDate: isoDate.optional(),
  /** The full list: listed key results are kept (by id) or added; an unlisted one without check-ins is removed. */
  keyResults: z.array(keyResultInputSchema).max(goalLimits.maxKeyResults, goalTexts.tooManyKeyResults).optional(),
  cadence: z.enum(reminderCadences).optional(),
  done: z.boolean().optional(),
});
export type UpdateGoalInput = z.input<typeof updateGoalSchema>;

export const checkInSchema = z.object({
  goalId: id,
  keyResultId: z.coerce.number({ message: goalTexts.keyResultNotFound }).int(goalTexts.keyResultNotFound).positive(goalTexts.keyResultNotFound).max(2_147_483_647, goalTexts.keyResultNotFound),
  value: finite,
  note: z.string().trim().max(goalLimits.maxNote, goalTexts.noteTooLong).optional(),
});
export type CheckInInput = z.input<typeof checkInSchema>;

/** The reminders the app has shown (goals.markRemindersSeen). */
export const remindersSeenSchema = z.object({ ids: z.array(z.number().int().positive().max(2_147_483_647)).max(100) });

/** A goal as every client sees it (REST and tRPC). */
export type GoalView = {
  id: number;
  title: string;
  framework: GoalFramework;
  dueDate: string;
  status: GoalStatus;
  progress: number;
  cadence: (typeof reminderCadences)[number];
  chatId: number | null;
  /** Demo sample data (the demo's template, or a visitor's copy of it). */
  sample: boolean;
  createdAt: string;
  doneAt: string | null;
  /** Whether checkIns hold every check-in ('full') or only the latest of each key result. */
  history: 'full' | 'latest';
  keyResults: Array<{
    id: number;
    title: string;
    start: number;
    target: number;
    unit: string;
    current: number;
    progress: number;
    checkIns: Array<{ value: number; note: string | null; createdAt: string }>;
  }>;
};
