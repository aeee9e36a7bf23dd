import type { OnboardingRole } from '../../../shared/schemas/knowledgeBase.js';
import { KnowledgeBase } from '../../db/entities/KnowledgeBase.js';
import type { AuthedContext } from '../../trpc/context.js';
import { readKnowledgeBase } from './knowledgeBaseRow.js';

// The onboarding's role answers fill the knowledge base (the product spec's screens, Onboarding): an answer
// replaces the stored value, an empty answer keeps it. The first time, the row starts from the
// user's own name, job title and company; useKnowledgeBase stays as it was (off by default).
export async function applyOnboardingRole(ctx: AuthedContext, input: OnboardingRole) {
  await ctx.em.transactional(async (em) => {
    const row =
      (await em.findOne(KnowledgeBase, { user: ctx.user.id })) ??
      em.create(KnowledgeBase, {
        user: ctx.user.id,
        fullName: ctx.user.fullName,
        jobTitle: ctx.user.jobTitle ?? '',
        company: ctx.user.company ?? '',
        emailTone: null,
        directReports: null,
      });
    if (input.jobTitle) row.jobTitle = input.jobTitle;
    if (input.company) row.company = input.company;
    if (input.manager) row.manager = input.manager;
    if (input.directReports !== null) row.directReports = input.directReports;
    row.updatedAt = new Date();
  });
  return (await readKnowledgeBase(ctx.em.fork(), ctx.user.id))!;
}
