import { checkInSchema, createGoalSchema, goalRefSchema, listGoalsSchema, remindersSeenSchema, updateGoalSchema } from '../../../shared/schemas/goals.js';
import { protectedProcedure, router } from '../../trpc/init.js';
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
  markRemindersSeen: protectedProcedure.input(remindersSeenSchema).mutation(({ ctx, input }) => markRemindersSeen(ctx.em, ctx.user.id, input.ids)),
});
