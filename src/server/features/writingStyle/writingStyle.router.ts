import { generateEmailSchema } from '../../../shared/schemas/writingStyle.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { analyzeWritingStyle } from './analyzeWritingStyle.js';
import { countSentEmails } from './countSentEmails.js';
import { generateEmail } from './generateEmail.js';
import { getWritingStyle } from './getWritingStyle.js';

// The writing style page and chat panel (SPEC section 2); each user reaches only their own profile.
export const writingStyleRouter = router({
  get: protectedProcedure.query(({ ctx }) => getWritingStyle(ctx)),
  sentEmails: protectedProcedure.query(({ ctx }) => countSentEmails(ctx)),
  analyze: protectedProcedure.mutation(({ ctx }) => analyzeWritingStyle(ctx)),
  generate: protectedProcedure.input(generateEmailSchema).mutation(({ ctx, input }) => generateEmail(ctx, input)),
});
