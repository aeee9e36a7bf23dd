import { defineEntity, p } from '@mikro-orm/core';
import { emailTones, knowledgeBaseLimits } from '../../../shared/schemas/knowledgeBase.js';
import { User } from './User.js';

// The user knowledge base (the product spec's entities), one row per user keyed by the user's id. The browser
// keeps a copy under user_knowledge_base; this row is what other devices, the phone coach and
// email generation read.
export const KnowledgeBaseSchema = defineEntity({
  name: 'KnowledgeBase',
  tableName: 'knowledge_base',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    useKnowledgeBase: p.boolean().default(false),
    fullName: p.string().length(knowledgeBaseLimits.shortTextMax),
    jobTitle: p.string().length(knowledgeBaseLimits.shortTextMax),
    company: p.string().length(knowledgeBaseLimits.shortTextMax),
    department: p.string().length(knowledgeBaseLimits.shortTextMax).default(''),
    team: p.text().default(''),
    manager: p.string().length(knowledgeBaseLimits.shortTextMax).default(''),
    directReports: p.integer().nullable(),
    stakeholders: p.text().default(''),
    // Null only while the row was started by onboarding and the user has not chosen a tone yet.
    emailTone: p.enum(emailTones).nullable(),
    signatureStyle: p.text().default(''),
    writingExamples: p.text().default(''),
    coachNotes: p.text().default(''),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class KnowledgeBase extends KnowledgeBaseSchema.class {}
KnowledgeBaseSchema.setClass(KnowledgeBase);
