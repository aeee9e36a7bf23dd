import { describe, expect, it } from 'vitest';
import type { CoachUser } from '../../providers/ai/types.js';
import { buildCoachContext } from './coachContext.js';
import type { CoachKnowledgeBase } from './knowledgeBaseContext.js';

const jane: CoachUser = { fullName: 'Jane Doe', jobTitle: 'Product Manager', company: 'Acme' };
const kb: CoachKnowledgeBase = {
  fullName: 'Jane Doe',
  jobTitle: 'Product Manager',
  company: 'Acme',
  department: '',
  team: ' Ann ,, Bob ',
  manager: 'Priya',
  directReports: 0,
  stakeholders: '',
  emailTone: 'Formal',
  signatureStyle: '',
  writingExamples: '',
  coachNotes: 'Wants to delegate',
};

const contextWith = async (knowledgeBase?: CoachKnowledgeBase | null) =>
  (await buildCoachContext({ user: jane, history: [], latestUserMessage: 'hi', mail: null, knowledgeBase }))
    .map((turn) => turn.content)
    .join('\n---\n');

describe('knowledge base in the coach context', () => {
  it('adds the filled fields as one system turn, lists split on commas', async () => {
    const text = await contextWith(kb);
    expect(text).toContain("The user's knowledge base");
    expect(text).toContain('Team members: Ann; Bob');
    expect(text).toContain('Manager: Priya');
    expect(text).toContain('Number of direct reports: 0');
    expect(text).toContain('Preferred email tone: Formal');
    expect(text).toContain('Wants to delegate');
    expect(text).not.toContain('Department');
    expect(text).not.toContain('Key stakeholders');
  });

  it('adds nothing without a knowledge base (off, or never saved)', async () => {
    for (const absent of [null, undefined]) expect(await contextWith(absent)).not.toContain('knowledge base');
  });
});
