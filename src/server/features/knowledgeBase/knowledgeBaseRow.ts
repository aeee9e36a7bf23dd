import type { EntityManager } from '@mikro-orm/core';
import type { StoredKnowledgeBase } from '../../../shared/schemas/knowledgeBase.js';
import { KnowledgeBase } from '../../db/entities/KnowledgeBase.js';

// The user's knowledge base row as the client sees it, always read through the user's id.
export function toStoredKnowledgeBase(row: KnowledgeBase): StoredKnowledgeBase {
  return {
    useKnowledgeBase: row.useKnowledgeBase,
    fullName: row.fullName,
    jobTitle: row.jobTitle,
    company: row.company,
    department: row.department,
    team: row.team,
    manager: row.manager,
    directReports: row.directReports ?? null,
    stakeholders: row.stakeholders,
    emailTone: row.emailTone ?? null,
    signatureStyle: row.signatureStyle,
    writingExamples: row.writingExamples,
    coachNotes: row.coachNotes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function readKnowledgeBase(em: EntityManager, userId: number): Promise<StoredKnowledgeBase | null> {
  const row = await em.findOne(KnowledgeBase, { user: userId });
  return row ? toStoredKnowledgeBase(row) : null;
}
