import { checkInSchema, createGoalSchema, goalRefSchema, listGoalsSchema, updateGoalSchema } from '../../../shared/schemas/goals.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { z } from 'zod';
import { markRemindersSeen, unseenReminders } from './goalReminders.js';
import { checkIn, createGoal, deleteGoal, getGoal, listGoals, updateGoal } from './manageGoals.js';

export const goalsRouter = router({
  list: protectedProcedure.input(listGoalsSchema).query(({ ctx, input }) => listGoals(ctx, input)),
  get: protectedProcedure.input(goalRefSchema).query(({ ctx, input }) => getGoal(ctx, input)),
  create: protectedProcedure.input(createGoalSchema).mutation(({ ctx, input }) => createGoal(ctx, input)),
  update: protectedProcedure.input(updateGoalSchema).mutation(({ ctx, input }) => updateGoal(ctx, input)),
  delete: protectedProcedure.input(goalRefSchema).mutation(({ ctx, input }) => deleteGoal(ctx, input)),
  checkIn: protectedProcedure.input(checkInSchema).mutation(({ ctx, input }) => checkIn(ctx, input)),
  /** Check-in reminders not yet shown: the app shows them on the next visit. */
  reminders: protectedProcedure.query(({ ctx }) => unseenReminders(ctx.em, ctx.user.id)),
  markRemindersSeen: protectedProcedure
    .input(z.object({ ids: z.array(z.number().int().positive().max(2_147_483_647)).max(100) }))
    .mutation(({ ctx, input }) => markRemindersSeen(ctx.em, ctx.user.id, input.ids)),
});
