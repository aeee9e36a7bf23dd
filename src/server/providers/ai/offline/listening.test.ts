import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../types.js';
import { coachReply } from './engine.js';
import { minutesIn, onlyTime, periodIn } from './language.js';

// The offline coach listens: it takes what the user already said, understands lengths and
// periods the way people write them, checks that an answer fits the question, and never asks
// the same question more than twice. Every row is a phrasing as people type it.

function converse(lines: string[]): string[] {
  const history: ChatTurn[] = [];
  return lines.map((line) => {
    history.push({ role: 'user', content: line });
    const reply = coachReply({ messages: history, user: { fullName: 'Sam Lee', jobTitle: null, company: null } });
    history.push({ role: 'assistant', content: reply });
    return reply;
  });
}

const asksLengthAgain = /How many minutes is that\?/;

describe('lengths as people write them', () => {
  it.each([
    ['45 minutes', 45],
    ['It is a 45-minute meeting with six engineers', 45],
    ['a 30-min sync', 30],
    ['half an hour', 30],
    ['Half an hour should do', 30],
    ['an hour and a half', 90],
    ['about an hour and a half I think', 90],
    ['one and a half hours', 90],
    ['an hour', 60],
    ['1 hour', 60],
    ['1h', 60],
    ['1h30', 90],
    ['1.5 hours', 90],
    ['2 hrs', 120],
    ['forty-five minutes', 45],
    ['forty five minutes', 45],
    ['ninety minutes', 90],
    ['two hours', 120],
    ['twenty mins', 20],
    ['about 40 mins', 40],
    ['a quarter of an hour', 15],
    ['three quarters of an hour', 45],
    ['one hour and 15 minutes', 75],
    ['1 hour 20', 80],
    ["it's an hour-long call", 60],
    ['90', 90],
  ])('%j is %i minutes', (text, minutes) => {
    expect(minutesIn(text)).toBe(minutes);
  });

  it.each(['not long', 'tomorrow at 10', 'at 2:30', 'with 6 people', 'asap'])('%j is not a length', (text) => {
    expect(minutesIn(text)).toBeNull();
  });

  it.each([
    'It is a 45-minute meeting with six engineers',
    'half an hour',
    'an hour and a half',
    'forty-five minutes',
    'ninety mins',
    'two hours max',
  ])('the meeting plan takes %j as the length at once', (length) => {
    const replies = converse(['Plan a meeting', 'Sprint review with the team', length]);
    expect(replies[2]).not.toMatch(asksLengthAgain);
    expect(replies[2]).toContain('Meeting plan · Step 3 of 4 · Attendees');
  });
});

describe('what the user already said', () => {
  it.each([
    ['Can you set up OKRs for my platform team for Q1?', 'Q1'],
    ['Draft OKRs for Q3 2026', 'Q3 2026'],
    ['help me write okrs for next quarter', 'next quarter'],
    ['OKRs for H2 please', 'H2'],
    ['I need OKRs for the second quarter', 'the second quarter'],
    ['Set our OKRs for FY2027', 'FY2027'],
  ])('%j gives the period: it is not asked', (opening, period) => {
    const replies = converse([opening, 'Make our platform the fastest way for teams to ship']);
    expect(replies[0]).toContain('OKRs · Step 1 of 5 · Objective');
    expect(replies[1]).not.toContain('Which period');
    expect(replies[1]).toContain(`I'll take “${period}” as the period, as you said.`);
    expect(replies[1]).toContain('OKRs · Step 3 of 5 · Key result 1');
  });

  it('still asks for the period when the opening names none', () => {
    const replies = converse(['Draft my OKRs', 'Make our platform the fastest way for teams to ship']);
    expect(replies[1]).toContain('OKRs · Step 2 of 5 · Period');
  });

  it.each([
    ['Plan a 45-minute meeting with my team', '45 minutes'],
    ['Can you help me plan an hour-long workshop?', '1 hour'],
    ['I need an agenda for a half hour check-in', '30 minutes'],
  ])('%j gives the length: it is not asked', (opening, length) => {
    const replies = converse([opening, 'Agree the three priorities for next sprint']);
    expect(replies[1]).toContain(`I'll take “${length}” as the length, as you said.`);
    expect(replies[1]).toContain('Meeting plan · Step 3 of 4 · Attendees');
  });

  it('takes the length from the answer about the purpose', () => {
    const replies = converse(['Plan a meeting', 'Weekly sync, 30 minutes, to unblock the team']);
    expect(replies[1]).toContain('Meeting plan · Step 3 of 4 · Attendees');
    const result = converse(['Plan a meeting', 'Weekly sync, 30 minutes, to unblock the team', 'the team', 'blockers, demos']).at(-1)!;
    expect(result).toContain('(30 minutes, with the team)');
  });

  it('finishes the OKRs with the period it took from the opening', () => {
    const replies = converse([
      'Can you set up OKRs for my platform team for Q1?',
      'Make our platform the fastest way for teams to ship',
      'Cut build time from 20 to 8 minutes',
      'use that',
      'use that',
    ]);
    expect(replies.at(-1)).toContain('Here is an OKR draft for Q1');
    expect(replies.at(-1)).toContain("key results 2 and 3 are the coach's suggestions");
  });
});

describe('an answer that does not fit the question', () => {
  it.each(['tomorrow at 10', 'last Tuesday', 'on Monday morning', 'yesterday around 3pm', 'in March', 'two weeks ago'])(
    'feedback: %j is a time, not a behaviour, and the coach asks again kindly',
    (answer) => {
      const replies = converse(['Help me prepare feedback', 'Alex, a direct report', "In Tuesday's client call", answer]);
      expect(replies[3]).toContain('That tells me when it happened');
      expect(replies[3]).toContain('Feedback prep · Step 3 of 5 · Behaviour');
    },
  );

  it.each([
    'He interrupted the client three times',
    'She missed the Friday deadline without telling anyone',
    'Talked over Priya twice in the 10am standup',
  ])('feedback: %j is a behaviour and is taken', (answer) => {
    const replies = converse(['Help me prepare feedback', 'Alex, a direct report', "In Tuesday's client call", answer]);
    expect(replies[3]).toContain('Feedback prep · Step 4 of 5 · Impact');
  });

  it.each(['30 minutes', 'tomorrow at 3pm', 'next Monday'])('meeting plan: %j is not what the meeting is for', (answer) => {
    const replies = converse(['Plan a meeting', answer]);
    expect(replies[1]).toContain('What is the meeting for');
    expect(replies[1]).toContain('Meeting plan · Step 1 of 4 · Purpose');
  });

  it.each(['Q1', 'next quarter'])('OKRs: %j is a period, not an objective', (answer) => {
    const replies = converse(['Draft my OKRs', answer]);
    expect(replies[1]).toContain('That sounds like the period');
  });

  it('knows a time from a sentence', () => {
    expect(onlyTime('tomorrow at 10')).toBe(true);
    expect(onlyTime('He was late on Monday')).toBe(false);
    expect(periodIn('OKRs for Q1?')).toBe('Q1');
  });
});

describe('never the same question more than twice', () => {
  it('takes a sensible default for the length and says so', () => {
    const replies = converse(['Plan a meeting', 'Sprint review with the team', 'not long', 'no clue honestly']);
    expect(replies[2]).toMatch(asksLengthAgain);
    expect(replies[3]).not.toMatch(asksLengthAgain);
    expect(replies[3]).toContain('I\'ll pencil in my suggestion, “30 minutes”, for now. It is the coach\'s idea, not yours');
    expect(replies[3]).toContain('Meeting plan · Step 3 of 4 · Attendees');
  });

  it('takes this quarter as the period after two unclear answers', () => {
    const replies = converse(['Draft my OKRs', 'Make our platform the fastest way for teams to ship', 'soonish', 'whenever really']);
    expect(replies[3]).toContain('I\'ll pencil in my suggestion, “this quarter”, for now');
    expect(replies[3]).toContain('OKRs · Step 3 of 5 · Key result 1');
  });

  it('moves on with the answer as it is when there is no default, and asks nothing a third time', () => {
    const replies = converse(['Help me prepare feedback', 'Alex, a direct report', "In Tuesday's client call", 'tomorrow at 10', 'tomorrow at 10']);
    expect(replies[3]).toContain('That tells me when it happened');
    expect(replies[4]).toContain('I\'ll note “tomorrow at 10” as it is for now');
    expect(replies[4]).toContain('Feedback prep · Step 4 of 5 · Impact');
  });

  it('counts requests for help as asking again', () => {
    const replies = converse(['Plan a meeting', 'Sprint review with the team', 'help', 'what do you mean']);
    expect(replies[3]).toContain('Meeting plan · Step 3 of 4');
  });
});
