import { checkInSchema, createGoalSchema, goalRefSchema, listGoalsSchema, remindersSeenSchema, updateGoalSchema } from '../../../shared/schemas/goals.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { markRemindersSeen, unseenReminders } from './goalReminders.js';
import { checkIn, createGoal, deleteGoal, getGoal, listGoals, updateGoal } from './manageGoals.js';

// Open to API keys with the `goals` scope.
const goalsProcedure = protectedProcedure.meta({ keys: ['goals'] });

export const goalsRouter = router({
  list: goalsProcedure.input(listGoalsSchema).query(({ ctx, input }) => listGoals(ctx, input)),
  get: goalsProcedure.input(goalRefSchema).query(({ ctx, input }) => getGoal(ctx, input)),
  create: goalsProcedure.input(createGoalSchema).mutation(({ ctx, input }) => createGoal(ctx, input)),
  update: goalsProcedure.input(updateGoalSchema).mutation(({ ctx, input }) => updateGoal(ctx, input)),
  delete: goalsProcedure.input(goalRefSchema).mutation(({ ctx, input }) => deleteGoal(ctx, input)),
  checkIn: goalsProcedure.input(checkInSchema).mutation(({ ctx, input }) => checkIn(ctx, input)),
  /** Check-in reminders not yet shown: the app shows them on the next visit. */
  reminders: goalsProcedure.query(({ ctx }) => unseenReminders(ctx.em, ctx.user.id)),
  markRemindersSeen: goalsProcedure.input(remindersSeenSchema).mutation(({ ctx, input }) => markRemindersSeen(ctx.em, ctx.user.id, input.ids)),
});
