import { knowledgeBaseSchema, onboardingRoleSchema } from '../../../shared/schemas/knowledgeBase.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { applyOnboardingRole } from './applyOnboardingRole.js';
import { getKnowledgeBase } from './getKnowledgeBase.js';
import { saveKnowledgeBase } from './saveKnowledgeBase.js';

// The user knowledge base (the product spec's screens): each user reads and writes only their own.
export const knowledgeBaseRouter = router({
  get: protectedProcedure.query(({ ctx }) => getKnowledgeBase(ctx)),
  save: protectedProcedure.input(knowledgeBaseSchema).mutation(({ ctx, input }) => saveKnowledgeBase(ctx, input)),
  applyOnboarding: protectedProcedure.input(onboardingRoleSchema).mutation(({ ctx, input }) => applyOnboardingRole(ctx, input)),
});
