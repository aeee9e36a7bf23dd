import { describe, expect, it } from 'vitest';
import { readMove } from '../../../../shared/rehearsalMoves.js';
import { rehearsalTexts } from '../../../../shared/texts/rehearsals.js';
import type { CoachCounterpart, ChatTurn } from '../contract.js';
import { counterpartBrief } from '../../../features/rehearsals/brief.js';
import { counterpartReply } from './counterpart.js';

// The offline counterpart answers what the user just did, from the person's private brief: an
// acknowledgement eases it (and brings out what the user did not know), an open question gets an
// answer, a clear request with an owner and a date gets a yes or a condition, blame and hedging make
// it dig in; 'pause' or distress steps out of the role for one reply. Never by the turn number.

const situation = 'The product launch date slips by two weeks because the vendor delivered late.';
const person = (difficulty: CoachCounterpart['difficulty']): CoachCounterpart => ({
  name: 'Sam Rivera',
  role: 'Head of Sales',
  relationship: null,
  situation,
  difficulty,
  memories: [],
  mailSubjects: [],
  brief: counterpartBrief({ counterpartName: 'Sam Rivera', situation, difficulty }),
});
const scope = { firstName: 'Jane', writingStyle: null } as Parameters<typeof counterpartReply>[2];

/** The counterpart's reply to each line in turn. */
function play(difficulty: CoachCounterpart['difficulty'], lines: string[]): string[] {
  const history: ChatTurn[] = [];
  const c = person(difficulty);
  return lines.map((line) => {
    history.push({ role: 'user', content: line });
    const reply = counterpartReply(c, history, scope);
    history.push({ role: 'assistant', content: reply });
    return reply;
  });
}
const replyTo = (difficulty: CoachCounterpart['difficulty'], line: string, before: string[] = []) => play(difficulty, [...before, line]).at(-1)!;

describe('what the user just did', () => {
  it.each([
    ['I hear you, and that must have been frustrating.', 'acknowledged'],
    ['What worries you most about the new date?', 'asked'],
    ['Can we agree you flag risks by Wednesday each sprint?', 'requested'],
    ['Can we maybe agree on a new date, if possible?', 'hedged'],
    ['This is your fault, you were careless with the vendor.', 'blamed'],
    ['pause', 'paused'],
    ["I can't do this.", 'distressed'],
    ['The launch moves by two weeks.', 'stated'],
  ] as const)('%s is %s', (line, move) => {
    expect(readMove(line)).toBe(move);
  });
});

describe('the counterpart reacts to the move, not the turn number', () => {
  it('a supportive Sam does not agree with a hedge: asks what exactly is wanted', () => {
    const reply = replyTo('supportive', 'Maybe we could sort of look at the date again, I guess?', ['Hi Sam, I wanted to talk about the launch.', 'It slips by two weeks.']);
    expect(reply).not.toMatch(/I agree|let's do it that way/i);
    expect(reply).toMatch(/what exactly|say it plainly/i);
  });

  it('the same turn number gets different replies for different moves', () => {
    const opening = ['I wanted to talk about the launch date.'];
    const replies = ['I hear you, and I know this puts you in a hard spot.', 'This is your fault, you were careless with the vendor.', 'Maybe, um, we could kind of move it?'].map((line) => replyTo('realistic', line, opening));
    expect(new Set(replies).size).toBe(3);
  });

  it('acknowledging eases it and brings out the one thing the user did not know', () => {
    const c = person('realistic');
    const reply = replyTo('realistic', 'I understand this lands on you, and that is fair to say.', ['I wanted to talk about the launch date.']);
    expect(reply).toContain(c.brief.unknown);
    expect(reply).toMatch(/^Thank you/);
  });

  it('an open question is answered from the brief', () => {
    const c = person('tough');
    expect(replyTo('tough', 'What would make the new date work for you?')).toContain(c.brief.unknown);
  });

  it('blame makes it dig in, firmly and without abuse', () => {
    for (const difficulty of ['supportive', 'realistic', 'tough'] as const) {
      const reply = replyTo(difficulty, 'You always do this, it is your fault the launch slipped.');
      expect(reply).toMatch(/unfair|not fair|not going to take the blame|don't accept/i);
      expect(reply).not.toMatch(/\b(?:idiot|stupid|shut up|useless)\b/i);
    }
  });

  it('a clear request with an owner and a date gets an answer about that date; one without a date is asked for it', () => {
    expect(replyTo('supportive', 'Can we agree you flag risks by Wednesday each sprint?')).toMatch(/Wednesday/);
    expect(replyTo('tough', 'Can we agree you flag risks by Wednesday each sprint?')).toMatch(/Wednesday/);
    expect(replyTo('realistic', 'Could you flag the risks to me?')).toMatch(/by when/i);
    // Acknowledged first, a tough person comes round to a plain yes-with-a-condition rather than a refusal.
    const eased = play('tough', ['I hear you, that is fair.', 'I understand, and I appreciate you saying that.', 'Can we agree you flag risks by Wednesday each sprint?']).at(-1)!;
    expect(eased).toMatch(/Wednesday/);
    expect(eased).not.toMatch(/a lot to ask/);
  });

  it("steps out of the role once on 'pause' or distress, then plays the person again", () => {
    const replies = play('tough', ['I wanted to talk about the launch date.', 'pause', 'OK, the launch moves by two weeks.']);
    expect(replies[1]).toBe(rehearsalTexts.stepOutPause('Sam Rivera'));
    expect(replies[2]).not.toContain(rehearsalTexts.stepOutMarker);
    expect(replyTo('realistic', 'This is too much, I can\u2019t do this.')).toBe(rehearsalTexts.stepOutDistress('Sam Rivera'));
  });

  it('never puts the name before the line, nor says the coach fallback', () => {
    for (const reply of play('realistic', ['Hello', 'We need two more weeks.', 'What do you think?', 'Thanks.'])) {
      expect(reply.startsWith('Sam Rivera:')).toBe(false);
      expect(reply).not.toContain("I'm not sure how to respond to that.");
    }
  });
});
