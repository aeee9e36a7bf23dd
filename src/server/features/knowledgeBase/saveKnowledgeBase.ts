import type { KnowledgeBase as KnowledgeBaseInput } from '../../../shared/schemas/knowledgeBase.js';
import { KnowledgeBase } from '../../db/entities/KnowledgeBase.js';
import type { AuthedContext } from '../../trpc/context.js';
import { readKnowledgeBase } from './knowledgeBaseRow.js';

// One statement: the first save inserts the row, later saves replace every field.
export async function saveKnowledgeBase(ctx: AuthedContext, input: KnowledgeBaseInput) {
  await ctx.em.upsert(KnowledgeBase, { user: ctx.user.id, ...input, updatedAt: new Date() });
  return (await readKnowledgeBase(ctx.em.fork(), ctx.user.id))!;
}
