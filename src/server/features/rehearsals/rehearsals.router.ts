import { createRehearsalSchema, rehearsalRefSchema, retryRehearsalSchema } from '../../../shared/schemas/rehearsals.js';
import { chatRefSchema } from '../../../shared/schemas/chats.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { callRehearsal, getRehearsal, listRehearsals, rehearsalFeedback, rehearsalOfChat, retryRehearsal, startRehearsal } from './rehearsals.js';

// Rehearsals are chats of their own: an API key reaches them as it reaches chats, with
// the `chat` scope.
const rehearsalProcedure = protectedProcedure.meta({ keys: ['chat'] });

export const rehearsalsRouter = router({
  create: rehearsalProcedure.input(createRehearsalSchema).mutation(({ ctx, input }) => startRehearsal(ctx, input)),
  list: rehearsalProcedure.query(({ ctx }) => listRehearsals(ctx)),
  get: rehearsalProcedure.input(rehearsalRefSchema).query(({ ctx, input }) => getRehearsal(ctx, input)),
  ofChat: rehearsalProcedure.input(chatRefSchema).query(({ ctx, input }) => rehearsalOfChat(ctx, input)),
  feedback: rehearsalProcedure.input(rehearsalRefSchema).mutation(({ ctx, input }) => rehearsalFeedback(ctx, input)),
  retry: rehearsalProcedure.input(retryRehearsalSchema).mutation(({ ctx, input }) => retryRehearsal(ctx, input)),
  /** The rehearsal held by phone: rings the user's verified number. Not for API keys (a call rings a real phone). */
  callMe: protectedProcedure.input(rehearsalRefSchema).mutation(({ ctx, input }) => callRehearsal(ctx, input)),
});
