import type { EntityManager } from '@mikro-orm/core';
import type { WritingStyle } from '../../../shared/schemas/writingStyle.js';
import { WritingStyleProfile } from '../../db/entities/WritingStyleProfile.js';

// The profile is read and written only through the signed-in user's id (architecture rule 9).

export async function readWritingStyle(em: EntityManager, userId: number): Promise<WritingStyle | null> {
  const profile = await em.findOne(WritingStyleProfile, { user: userId });
  return profile?.toDto() ?? null;
}

/** One statement: a new analysis replaces the previous profile, and two racing ones cannot collide. */
export async function saveWritingStyle(em: EntityManager, userId: number, style: Omit<WritingStyle, 'lastUpdated'> & { lastUpdated: Date }) {
  await em.upsert(WritingStyleProfile, { user: userId, ...style });
}
