import { describe, expect, it } from 'vitest';
import { chatTexts } from '../../../../shared/texts/index.js';
import { coachTexts } from '../../../../shared/texts/coach.js';
import { assembleCoachContext } from '../../../features/coach/coachContext.js';
import { noFacts, type CoachGoal, type ChatTurn } from '../contract.js';
import { renderCoachContext } from '../renderContext.js';
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

// The coach that listens: a reflection of the user's words (and feeling) before one open
// question, never a bare acknowledgement, never the menu, and every question it asks has a thread.
describe('reflect before asking', () => {
  const menuLine = '**GROW session**:';
  const noFallback = (reply: string) => {
    expect(reply).not.toContain(chatTexts.fallbackReply);
    expect(reply).not.toContain(coachTexts.fallbackHint);
    expect(reply).not.toContain(menuLine);
  };

  it('reflects being ignored and feeling like a failure, asks one open question and asks permission to work it through', () => {
    const [reply] = converse(['My team ignores me and I feel like a failure']);
    expect(reply).toMatch(/^Your team ignores you, and you’re feeling like a failure\. That sounds hard\./);
    expect(reply).toContain('Tell me more: what would be most useful to focus on?');
    expect(reply).toContain('If you’d like to work it through together, one question at a time, say “yes”');
    expect((reply!.match(/\?/g) ?? []).length).toBe(1);
    noFallback(reply!);
  });

  it.each([
    'blorp quux zzz',
    'My manager never reads my updates',
    'I had a weird week',
    'I am not sure what I want anymore',
    'The reorg changed everything for us',
    'Honestly it has been a lot lately',
  ])('answers %j with its words and the open question, never the menu or the spec fallback', (message) => {
    const [reply] = converse([message]);
    expect(reply).toContain('what would be most useful to focus on?');
    noFallback(reply!);
  });

  it('takes up the answer to its own "what would be most useful" question instead of asking it again', () => {
    const replies = converse(['The reorg changed everything for us', 'Finding my place in the new team']);
    expect(replies[1]).toMatch(/^So finding your place in the new team\./);
    expect(replies[1]).toContain('What would a good outcome look like for you? If you’d like to work it through together');
    noFallback(replies[1]!);
    expect(converse(['The reorg changed everything for us', 'Finding my place in the new team', 'yes'])[2]).toContain('GROW · Step 1 of 9 · Goal');
  });

  it('never opens with a bare acknowledgement in any framework', () => {
    const sessions = [
      ['Plan a meeting', 'Sprint review with the team', '45 minutes', 'the team and Sam', 'demos, risks'],
      ['Help me prepare feedback', 'Alex, a direct report', "In Tuesday's client call", 'He interrupted the client three times', 'The client stopped sharing', 'Let others finish'],
      ['Help me set a SMART goal', 'Cut the time new engineers need to ship their first change', 'from 6 weeks to 3 weeks', 'I have 2 hours a week', 'It frees the team for the new product', 'by the end of Q3'],
    ];
    for (const lines of sessions) {
      for (const reply of converse(lines)) expect(reply).not.toMatch(/^(?:Good|Noted|Got it|Thank you|Thanks, that helps|Good list)\./);
    }
  });
});

describe('never a dead end', () => {
  const user = { fullName: 'Alex Morgan', jobTitle: 'Engineering Manager', company: null };
  const invite = {
    subject: 'Release 4.2 go/no-go',
    start: '2026-11-26T10:00:00+01:00',
    end: '2026-11-26T10:30:00+01:00',
    organizer: { name: 'Alex Morgan', email: 'alex@contoso.example' },
    attendees: [{ name: 'Priya Patel', email: 'priya@contoso.example' }],
    location: '',
    isOnline: true,
    body: 'Topics:\n- Open bugs\n- Rollback plan',
  };

  it('continues the meeting prep when its outcome question is answered: the outcome reflected, the agenda reshaped around it', async () => {
    const history: ChatTurn[] = [];
    const agendaContext = await assembleCoachContext({ user, history, latestUserMessage: '', facts: { ...noFacts, meetings: { prep: { invite, mailSubjects: [], turn: 'agenda' }, week: null } } });
    const agenda = coachReply({ messages: history, context: agendaContext, user });
    expect(agenda).toContain('What is the one outcome you most need from this meeting?');
    history.push({ role: 'assistant', content: agenda }, { role: 'user', content: 'We need to decide whether Release 4.2 ships on Friday.' });
    const context = await assembleCoachContext({ user, history, latestUserMessage: history.at(-1)!.content, facts: { ...noFacts, meetings: { prep: { invite, mailSubjects: [], turn: 'follow-up' }, week: null } } });
    const reply = coachReply({ messages: history, context, user });
    expect(reply).toMatch(/^So the meeting has to decide whether Release 4\.2 ships on Friday\./);
    expect(reply).toContain('1. The outcome we need: We need to decide whether Release 4.2 ships on Friday');
    expect(reply).toMatch(/^\d\. Open bugs \(\d+ min\)$/m);
    expect(reply).toMatch(/^\d\. Decide: .*owners and next steps \(\d+ min\)$/m);
    expect(reply).not.toContain(chatTexts.fallbackReply);
    expect(reply).not.toContain(coachTexts.fallbackHint);
  });

  it('reflects meetings eating deep work as a focus-time problem and asks, with no calendar dump and no agenda', async () => {
    const message = 'I keep getting pulled into meetings and never finish my deep work';
    const week = async () => [{ subject: 'Design review', start: '2026-11-30T10:00:00+01:00', end: '2026-11-30T11:00:00+01:00', attendees: ['Priya Patel'] }];
    const context = await assembleCoachContext({ user, history: [], latestUserMessage: message, facts: { ...noFacts, meetings: { prep: null, week } } });
    const reply = coachReply({ messages: [{ role: 'user', content: message }], context, user });
    expect(reply).toContain('So you keep getting pulled into meetings and never finish your deep work.');
    expect(reply).toContain('focus-time problem');
    expect(reply).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(reply).not.toMatch(/agenda/i);
    expect((reply.match(/\?/g) ?? []).length).toBe(1);
    const replies = converse([message, 'Two mornings a week with no meetings', 'Block Tuesday and Thursday mornings']);
    expect(replies[1]).toContain('What is one step you could take this week');
    expect(replies[2]).toContain('That is your step, in your words.');
  });

  it('takes up the meeting named in answer to the week’s question', async () => {
    const message = 'What is on my calendar this week?';
    const week = async () => [{ subject: 'Design review', start: '2026-11-30T10:00:00+01:00', end: '2026-11-30T11:00:00+01:00', attendees: ['Priya Patel'] }];
    const context = await assembleCoachContext({ user, history: [], latestUserMessage: message, facts: { ...noFacts, meetings: { prep: null, week } } });
    const history: ChatTurn[] = [{ role: 'user', content: message }];
    history.push({ role: 'assistant', content: coachReply({ messages: history, context, user }) }, { role: 'user', content: 'The design review' });
    const next = await assembleCoachContext({ user, history, latestUserMessage: 'The design review', facts: { ...noFacts, meetings: { prep: null, week } } });
    const reply = coachReply({ messages: history, context: next, user });
    expect(reply).toContain('**Design review** (Monday 30 November, 10:00) it is');
    expect(reply).toContain('/meetings');
  });

  const goals: CoachGoal[] = [
    { title: 'Become a better leader', framework: 'OKR', dueDate: '2027-03-31', status: 'on_track', keyResults: [{ title: 'Read 6 leadership books', current: 1, target: 6, unit: 'books', lastCheckIn: null }] },
    { title: 'Ship faster', framework: 'OKR', dueDate: '2027-03-31', status: 'on_track', keyResults: [{ title: 'Deploys a day', current: 1, target: 5, unit: 'deploys', lastCheckIn: null }] },
  ];
  const withGoals = async (history: ChatTurn[], list = goals) =>
    coachReply({ messages: history, context: await assembleCoachContext({ user, history, latestUserMessage: history.at(-1)!.content, facts: { ...noFacts, goals: list } }), user });

  it('recognises a check-in told in a new chat and names the one goal it fits', async () => {
    const reply = await withGoals([{ role: 'user', content: 'I read 3 leadership books now' }]);
    expect(reply).toContain('So you read 3 leadership books now.');
    expect(reply).toContain('That is progress on “Become a better leader”');
    expect(reply).toContain('/goals');
    expect(reply).not.toContain('most useful to focus on');
  });

  it('asks which goal when the check-in could be for several, and continues with the answer', async () => {
    const history: ChatTurn[] = [{ role: 'user', content: 'We are at 4 now' }];
    const first = await withGoals(history);
    expect(first).toContain('Which goal is this for? 1. “Become a better leader”, 2. “Ship faster”.');
    history.push({ role: 'assistant', content: first }, { role: 'user', content: 'Ship faster' });
    const second = await withGoals(history);
    expect(second).toContain('Then that is progress on “Ship faster”');
    expect(second).toContain('What helped you get there?');
    history.push({ role: 'assistant', content: second }, { role: 'user', content: 'Pairing on the deploy scripts' });
    expect(await withGoals(history)).toContain('So pairing on the deploy scripts.');
  });

  it('says a check-in is logged when the goal’s chat has already logged it', async () => {
    const logged: CoachGoal[] = [{ ...goals[1]!, keyResults: [{ ...goals[1]!.keyResults[0]!, current: 3, lastCheckIn: '2026-11-30T10:00:00Z' }] }];
    const reply = await withGoals([{ role: 'user', content: 'We are at 3 deploys a day now' }], logged);
    expect(reply).toContain('It is logged on “Ship faster”: Deploys a day is at 3 of 5 deploys.');
  });
});

describe('partner, not director; SMART and OKR fidelity', () => {
  it('meets an activity key result with "what result would that produce?"', () => {
    const replies = converse(['Draft my OKRs', 'Make onboarding a standout experience', 'Q1', 'Run 6 onboarding workshops']);
    expect(replies[3]).toContain('“Run 6 onboarding workshops” sounds like an activity: what result would that produce?');
    expect(replies[3]).toContain('OKRs · Step 3 of 5 · Key result 1');
  });

  it('asks for a baseline when a key result has a target only', () => {
    const replies = converse(['Draft my OKRs', 'Make onboarding a standout experience', 'Q1', 'Reach 60% week-1 activation', 'from 40% today']);
    expect(replies[3]).toContain('Where is it today?');
    expect(replies[4]).toContain('OKRs · Step 4 of 5 · Key result 2');
  });

  it('three "use that" make an OKR draft of the coach’s suggestions, never "your OKRs", and ask the user to make them their own', () => {
    const replies = converse(['Draft my OKRs', 'Make onboarding a standout experience', 'Q1', 'use that', 'use that', 'use that']);
    const result = replies.at(-1)!;
    expect(result).not.toContain('your OKRs');
    expect(result).toContain('Here is an OKR draft for Q1');
    expect(result.match(/\(the coach's suggestion\)/g)).toHaveLength(3);
    expect(result).toContain("key results 1, 2 and 3 are the coach's suggestions. Make them your own");
  });

  it('suggests only outcomes with a baseline', () => {
    const result = converse(['Draft my OKRs', 'Grow the skills and careers of my team', 'Q1', 'use that', 'use that', 'use that']).at(-1)!;
    const keyResults = result.split('\n').filter((line) => /^\d\. /.test(line));
    for (const kr of keyResults) {
      expect(kr.includes(' from ') && kr.includes(' to ')).toBe(true);
      expect(kr).not.toMatch(/^\d\. (?:Run|Hold|Complete|Deliver)\b/);
    }
  });

  it('asks whether the OKRs are committed or aspirational, and takes the answer up', () => {
    const replies = converse(['Draft my OKRs', 'Make onboarding a standout experience', 'Q1', 'Raise week-1 activation from 40% to 60%', 'Cut time to first value from 10 to 3 days', 'Raise CSAT from 70% to 85%', 'aspirational', 'Baselines first']);
    expect(replies[5]).toContain('Which kind of OKRs are these, committed');
    expect(replies[6]).toContain('Aspirational, then: a score of 0.7 is a good result');
    expect(replies[6]).toContain('What do you take away from this conversation?');
    expect(replies[7]).toContain('You take away: “Baselines first”. That is yours to keep');
  });

  it('meets an activity as a SMART measure with "what result would that produce?"', () => {
    const replies = converse(['Help me set a SMART goal', 'Make onboarding better for new engineers', 'Run 4 onboarding workshops']);
    expect(replies[2]).toContain('sounds like an activity: what result would that produce?');
    expect(replies[2]).toContain('SMART goal · Step 2 of 5');
  });
});

describe('the model’s coaching prompt states the same approach', () => {
  it('asks for reflection, contracting, permission, Whitmore’s GROW and outcome key results', async () => {
    const context = await assembleCoachContext({ user: { fullName: 'Sam Lee', jobTitle: null, company: null }, history: [], latestUserMessage: 'hi', facts: noFacts });
    const prompt = renderCoachContext(context)[0]!.content;
    for (const phrase of [
      "reflecting the user's own words, and the feeling",
      'one short open question',
      'Never open with a bare acknowledgement',
      'Tell me more: what would be most useful to focus on?',
      'how they will know it helped',
      'asking what they take away',
      'ask permission before suggesting',
      'never put words in the user\'s summary',
      'What\'s your part in this?',
      '"What else?" until the user runs out',
      'commitment on a scale of 1 to 10 ("What would make it a 9?")',
      'outcome with a baseline',
      'ask what result it would produce',
      'committed (expected in full) or aspirational',
    ]) {
      expect(prompt).toContain(phrase);
    }
  });
});

describe('reflections', () => {
  it.each([
    ['I feel unsafe and scared to go to work', 'You’re feeling unsafe and scared to go to work. That sounds hard.'],
    ["I'm nervous about presenting to the board", 'You’re feeling nervous about presenting to the board. That sounds hard.'],
    ['How do I say no to my VP?', 'You’re asking how to say no to your VP.'],
    ['What should I do about a low performer?', 'You’re asking what to do about a low performer.'],
    ['Our roadmap is a mess', 'So your roadmap is a mess.'],
    ['Releases slip because testing is manual', 'So releases slip because testing is manual.'],
  ])('%j is said back as %j', (message, reflection) => {
    expect(converse([message])[0]!.startsWith(reflection)).toBe(true);
  });
});
