import type { AuthedContext } from '../../trpc/context.js';
import { readKnowledgeBase } from './knowledgeBaseRow.js';

export function getKnowledgeBase(ctx: AuthedContext) {
  return readKnowledgeBase(ctx.em, ctx.user.id);
}
