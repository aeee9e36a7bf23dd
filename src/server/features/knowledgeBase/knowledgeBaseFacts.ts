import type { EntityManager } from '@mikro-orm/core';
import { KnowledgeBase } from '../../db/entities/KnowledgeBase.js';
import type { CoachKnowledgeBase } from '../../providers/ai/contract.js';

/**
 * The signed-in user's knowledge base for the coach, or null when there is none or
 * 'Use my knowledge base in coaching' is off (then nothing of it is sent).
 */
export async function loadCoachKnowledgeBase(em: EntityManager, userId: number): Promise<CoachKnowledgeBase | null> {
  const row = await em.findOne(KnowledgeBase, { user: userId, useKnowledgeBase: true });
  return row ?? null;
}
