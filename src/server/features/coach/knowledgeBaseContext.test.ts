import { describe, expect, it } from 'vitest';
import { renderCoachContext } from '../../providers/ai/renderContext.js';
import { type CoachUser, noFacts, type CoachKnowledgeBase } from '../../providers/ai/contract.js';
import { assembleCoachContext } from './coachContext.js';

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

const contextWith = async (knowledgeBase: CoachKnowledgeBase | null) =>
  renderCoachContext(await assembleCoachContext({ user: jane, history: [], latestUserMessage: 'hi', facts: { ...noFacts, knowledgeBase } }))
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
    expect(await contextWith(null)).not.toContain('knowledge base');
  });
});
