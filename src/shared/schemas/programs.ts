import { z } from 'zod';
import { programTexts } from '../texts/programs.js';

// Coaching programs an admin starts for a group (POST /api/admin/programs): a focus the coach
// knows, a cadence of nudges, a length in weeks.

export const programCadences = ['weekly', 'fortnightly', 'off'] as const;
export type ProgramCadence = (typeof programCadences)[number];
export const programLimits = { maxName: 120, maxFocus: 1000, minWeeks: 1, maxWeeks: 52, maxPrograms: 50 } as const;

export const createProgramSchema = z
  .object(
    {
      name: z.string({ message: programTexts.nameRequired }).trim().min(1, programTexts.nameRequired).max(programLimits.maxName, programTexts.nameTooLong),
      focus: z.string({ message: programTexts.focusRequired }).trim().min(1, programTexts.focusRequired).max(programLimits.maxFocus, programTexts.focusTooLong),
      /** A provisioned group's id (SCIM Groups), or a department's name: one of the two. */
      groupId: z.string().trim().min(1).max(36).optional(),
      department: z.string().trim().min(1).max(256).optional(),
      weeks: z.coerce.number({ message: programTexts.weeksRange }).int(programTexts.weeksRange).min(programLimits.minWeeks, programTexts.weeksRange).max(programLimits.maxWeeks, programTexts.weeksRange),
      cadence: z.enum(programCadences, { message: programTexts.cadenceInvalid }).default('weekly'),
      /** The first day (YYYY-MM-DD); today when absent. */
      startsOn: z.iso.date({ message: programTexts.startsOnInvalid }).optional(),
    },
    { message: programTexts.bodyRequired },
  )
  .refine((input) => (input.groupId === undefined) !== (input.department === undefined), { message: programTexts.oneTarget, path: ['groupId'] });
export type CreateProgramInput = z.input<typeof createProgramSchema>;

export const programIdSchema = z.object({ id: z.coerce.number({ message: programTexts.notFound }).int(programTexts.notFound).positive(programTexts.notFound).max(2_147_483_647, programTexts.notFound) });
