import { describe, expect, it } from 'vitest';
import { dueDateIn, goalDraftFromReply, keyResultFrom } from '../../../shared/goalDraft.js';
import type { ChatTurn } from '../../providers/ai/contract.js';
import { createOfflineCoach } from '../../providers/ai/offline/offlineCoach.js';

// 'Save as goal' reads the result the coach wrote. These drafts come from the offline coach's
// real output, played through whole conversations.
const today = new Date('2026-11-23T10:00:00Z');

async function lastReply(lines: string[]): Promise<string> {
  const history: ChatTurn[] = [];
  let reply = '';
  for (const line of lines) {
    history.push({ role: 'user', content: line });
    reply = '';
    for await (const piece of createOfflineCoach({ delayMs: 0 }).stream({ messages: history, user: { fullName: 'Jane Doe', jobTitle: 'EM', company: 'Acme' } })) reply += piece;
    history.push({ role: 'assistant', content: reply });
  }
  return reply;
}

describe('a goal draft from the coach’s result', () => {
  it('reads a SMART goal: the statement, the measure as a key result, the deadline', async () => {
    const result = await lastReply([
      'Help me set a SMART goal',
      'Cut the time new engineers need to ship their first change',
      'from 6 weeks to 3 weeks',
      'I can spend 2 hours a week on it and my manager supports it',
      'It lets the team take on the new product line this year',
      'by the end of Q1 2027',
    ]);
    expect(goalDraftFromReply(result, today)).toEqual({
      framework: 'SMART',
      title: 'Cut the time new engineers need to ship their first change (from 6 weeks to 3 weeks) by the end of Q1 2027',
      dueDate: '2027-03-31',
      keyResults: [{ title: 'Cut the time new engineers need to ship their first change', start: 6, target: 3, unit: 'weeks' }],
    });
  });

  it('reads OKRs: the objective, the period and each key result with its numbers', async () => {
    const result = await lastReply([
      "Let's draft OKRs",
      'Make onboarding a standout experience for new customers',
      'Q2 2027',
      'Raise activation from 40% to 60%',
      'Cut time to first value from 10 days to 3 days',
      'Cut churn from 5% to 3%',
    ]);
    const draft = goalDraftFromReply(result, today)!;
    expect(draft).toMatchObject({ framework: 'OKR', title: 'Make onboarding a standout experience for new customers', dueDate: '2027-06-30' });
    expect(draft.keyResults.map(({ start, target, unit }) => ({ start, target, unit }))).toEqual([
      { start: 40, target: 60, unit: '%' },
      { start: 10, target: 3, unit: 'days' },
      { start: 5, target: 3, unit: '%' },
    ]);
  });

  it('reads an OKR draft whose key results are partly the coach’s suggestions, without the mark', async () => {
    const result = await lastReply(["Let's draft OKRs", 'Make onboarding a standout experience for new customers', 'Q2 2027', 'Raise activation from 40% to 60%', 'use that', 'use that']);
    expect(result).toContain('Here is an OKR draft for Q2 2027');
    const draft = goalDraftFromReply(result, today)!;
    expect(draft).toMatchObject({ framework: 'OKR', dueDate: '2027-06-30' });
    expect(draft.keyResults).toHaveLength(3);
    expect(draft.keyResults.every((kr) => !kr.title.includes('suggestion'))).toBe(true);
  });

  it('reads a GROW summary: the goal, and the next action as a key result to tick off', async () => {
    const result = await lastReply([
      'Can we do a GROW session?',
      'Leave with one step I can take this week',
      'Get my team shipping a release every two weeks',
      'Releases slip because testing is manual and takes a week',
      'I keep saying yes to scope changes late in the sprint',
      'automate the smoke tests, pair with QA, cut the scope of each release',
      "that's all",
      'Automate the smoke tests: I will book a session with QA by 4 December',
      'The release crunch; I will book it for a quiet morning',
      'Priya from QA',
      '9',
    ]);
    const draft = goalDraftFromReply(result, today)!;
    expect(draft).toMatchObject({ framework: 'GROW', title: 'Get my team shipping a release every two weeks', dueDate: '2026-12-04' });
    expect(draft.keyResults).toEqual([{ title: expect.stringContaining('Automate the smoke tests'), start: 0, target: 1, unit: 'done' }]);
  });

  it('offers nothing for a reply that is not a result', async () => {
    expect(goalDraftFromReply(await lastReply(['Help me set a SMART goal']), today)).toBeNull();
    expect(goalDraftFromReply('Here is a draft agenda for a 45-minute weekly sync:\n\n1. Wins (5 min)', today)).toBeNull();
  });

  it.each([
    ['from 6 to 8 out of 10', { start: 6, target: 8, unit: 'out of 10' }],
    ['NPS 30 → 45', { start: 30, target: 45, unit: '' }],
    ['+15% trial conversions', { start: 0, target: 15, unit: '%' }],
    ['ship 3 demos a month', { start: 0, target: 3, unit: 'demos a month' }],
    ['delight customers', { start: 0, target: 1, unit: '' }],
    ['cycle time from 9,5 days to 5 days', { start: 9.5, target: 5, unit: 'days' }],
  ])('reads the measure in %j', (text, expected) => {
    expect(keyResultFrom(text, 'kr')).toEqual({ title: 'kr', ...expected });
  });

  it.each([
    ['by the end of Q3', '2027-09-30'],
    ['Q4', '2026-12-31'],
    ['Q1 2027', '2027-03-31'],
    ['by 30 June', '2027-06-30'],
    ['by December 15', '2026-12-15'],
    ['by March', '2027-03-31'],
    ['within 8 weeks', '2027-01-18'],
    ['by 2027-02-15', '2027-02-15'],
    ['by the end of the year', '2026-12-31'],
    ['someday', null],
  ])('reads the due date in %j', (text, expected) => {
    expect(dueDateIn(text, today)).toBe(expected);
  });
});
