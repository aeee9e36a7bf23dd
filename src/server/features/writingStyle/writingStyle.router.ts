import { generateEmailSchema } from '../../../shared/schemas/writingStyle.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { modelProcedure } from '../../trpc/modelProcedure.js';
import { analyzeWritingStyle } from './analyzeWritingStyle.js';
import { countSentEmails } from './countSentEmails.js';
import { generateEmail } from './generateEmail.js';
import { getWritingStyle } from './getWritingStyle.js';

// The writing style page and chat panel (the product spec's screens); each user reaches only their own profile.
// The analysis (which may ask the model for the tone) and the generation call the model: they
// take the per-minute chat limit and the daily model quota (modelProcedure).
export const writingStyleRouter = router({
  get: protectedProcedure.query(({ ctx }) => getWritingStyle(ctx)),
  sentEmails: protectedProcedure.query(({ ctx }) => countSentEmails(ctx)),
  analyze: modelProcedure.mutation(({ ctx }) => analyzeWritingStyle(ctx)),
  generate: modelProcedure.input(generateEmailSchema).mutation(({ ctx, input }) => generateEmail(ctx, input)),
});
