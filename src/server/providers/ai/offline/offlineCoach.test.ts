import { describe, expect, it } from 'vitest';
import { chatTexts } from '../../../../shared/texts/index.js';
import { coachTexts } from '../../../../shared/texts/coach.js';
import { type ChatTurn, type CoachUser, noFacts, type CoachContext, type MailSource } from '../contract.js';
import { assembleCoachContext } from '../../../features/coach/coachContext.js';
import { createOfflineCoach, wordPieces } from './offlineCoach.js';

const jane: CoachUser = { fullName: 'Jane Doe', jobTitle: 'Product Manager', company: 'Acme' };

async function replyTo(messages: ChatTurn[], user: CoachUser | null = jane, context?: CoachContext): Promise<string> {
  let reply = '';
  for await (const piece of createOfflineCoach({ delayMs: 0 }).stream({ messages, context, user: user ?? undefined })) reply += piece;
  return reply;
}

// Plays a conversation the way the chat does: each reply goes back into the history.
async function converse(lines: string[], options: { user?: CoachUser | null; system?: ChatTurn[] } = {}): Promise<string[]> {
  const history: ChatTurn[] = [];
  const replies: string[] = [];
  for (const line of lines) {
    history.push({ role: 'user', content: line });
    const reply = await replyTo([...(options.system ?? []), ...history], options.user === undefined ? jane : options.user);
    history.push({ role: 'assistant', content: reply });
    replies.push(reply);
  }
  return replies;
}

const questionMarks = (text: string) => (text.match(/\?/g) ?? []).length;

const growSession = [
  'Can we do a GROW session?',
  'Leave with one step I can take this week',
  'Get my team shipping a release every two weeks',
  'Releases slip because testing is manual and takes a week',
  'I keep saying yes to scope changes late in the sprint',
  'automate the smoke tests, pair with QA',
  'cut the scope of each release',
  "that's all",
  'Automate the smoke tests: I will book a session with QA by Friday',
  'The release crunch; I will book it for Monday morning',
  'Priya from QA, for an hour of pairing',
  '7',
  'If Priya confirmed the hour today',
];

describe('offline coach: GROW', () => {
  it('agrees the session, then Goal, Reality with the user’s part, Options until they run out, Will with obstacles, support and commitment', async () => {
    const replies = await converse(growSession);
    expect(replies[0]).toContain('Jane');
    expect(replies[0]).toContain('GROW · Step 1 of 9 · Goal');
    expect(replies[0]).toContain('what would you like to get from this conversation, and how will you know it helped?');
    expect(replies[1]).toContain('GROW · Step 2 of 9 · End goal');
    expect(replies[2]).toContain('GROW · Step 3 of 9 · Reality');
    expect(replies[2]).toContain('“Get my team shipping a release every two weeks”');
    expect(replies[3]).toContain('GROW · Step 4 of 9 · Your part');
    expect(replies[3]).toContain('What’s your part in this');
    expect(replies[4]).toContain('GROW · Step 5 of 9 · Options');
    expect(replies[4]).toContain('Product Manager at Acme');
    // "What else?" until the user runs out.
    expect(replies[5]).toContain('GROW · Step 5 of 9 · Options');
    expect(replies[5]).toContain('What else could you do?');
    expect(replies[6]).toContain('What else could you do?');
    expect(replies[7]).toContain('GROW · Step 6 of 9 · Will');
    expect(replies[7]).toContain('Your options, in your words:');
    expect(replies[7]).toContain('- Pair with QA');
    expect(replies[7]).toContain('- Cut the scope of each release');
    expect(replies[8]).toContain('GROW · Step 7 of 9 · Obstacles');
    expect(replies[8]).toContain('What could get in the way');
    expect(replies[9]).toContain('GROW · Step 8 of 9 · Support');
    expect(replies[9]).toContain('Who can support you');
    expect(replies[10]).toContain('GROW · Step 9 of 9 · Commitment');
    expect(replies[10]).toContain('On a scale of 1 to 10');
    expect(replies[11]).toContain('7 out of 10. What would make it a 9?');
    for (const reply of replies.slice(0, 12)) expect(questionMarks(reply.split('**').at(-1)!)).toBeLessThanOrEqual(2);

    const summary = replies[12]!;
    expect(summary).toContain('GROW summary');
    expect(summary).toContain('**This conversation:** Leave with one step I can take this week.');
    expect(summary).toContain('**Goal:** Get my team shipping a release every two weeks.');
    expect(summary).toContain('**Reality:** Releases slip because testing is manual and takes a week.');
    expect(summary).toContain('**Your part:** I keep saying yes to scope changes late in the sprint.');
    expect(summary).toContain('  - Cut the scope of each release');
    expect(summary).toContain('**Will:** Automate the smoke tests: I will book a session with QA by Friday.');
    expect(summary).toContain('**Support:** Priya from QA, for an hour of pairing.');
    expect(summary).toContain('**Commitment:** 7 out of 10; what would make it a 9: If Priya confirmed the hour today');
    expect(summary).toContain('**Next action:** Automate the smoke tests: I will book a session with QA by Friday.');
    expect(summary).not.toContain('Step');
    expect(summary).not.toContain("coach’s idea");
    expect(summary.trim().endsWith('What do you take away from this conversation?')).toBe(true);
  });

  it('closes by taking up what the user takes away, with no menu', async () => {
    const replies = await converse([...growSession, 'That I say yes too fast']);
    expect(replies.at(-1)).toContain('You take away that you say yes too fast. That is yours to keep');
    expect(replies.at(-1)).not.toContain('**GROW session**');
  });

  it('reflects each answer in the user’s own words, never a bare acknowledgement', async () => {
    const replies = await converse(growSession);
    expect(replies[3]).toMatch(/^So releases slip because testing is manual and takes a week\./);
    expect(replies[4]).toMatch(/^So you keep saying yes to scope changes late in the sprint\./);
    for (const reply of replies) expect(reply).not.toMatch(/^(?:Good|Noted|Got it|Thank you|Thanks, that helps|Good list)\./);
  });

  it('asks permission before offering ideas, marks them as the coach’s, and never calls them the user’s', async () => {
    const replies = await converse([
      'GROW',
      'A first step on delegation',
      'Delegate the sprint planning to my team',
      'I do all the planning myself',
      'I never hand it over',
      'not sure',
      'not sure',
      'not sure',
      'Ask someone who has solved this before: I will ask Sam by Friday',
    ]);
    expect(replies[5]).toContain('if it would help, I can offer an idea of mine');
    expect(replies[5]).not.toContain('ask someone who has solved this before');
    expect(replies[6]).toContain('Here are some ideas of mine, to take or leave');
    expect(replies[7]).toContain('GROW · Step 6 of 9 · Will');
    expect(replies[7]).not.toContain('Your options');
    expect(replies[7]).toContain('- Ask someone who has solved this before (the coach’s idea)');
    for (const reply of replies) expect(reply).not.toContain("I'll go with");
  });

  it('asks for a date when the commitment has none, and keeps both parts of the answer', async () => {
    const replies = await converse(['GROW', 'A plan for my network', 'Grow my network inside the company', 'I know few people outside my team', 'I rarely reach out', 'coffee chats, join a guild', 'no', 'Coffee chats', 'starting next Monday', 'a busy week', 'my manager', '9']);
    expect(replies[7]).toContain('GROW · Step 6 of 9 · Will');
    expect(replies[7]).toContain('When exactly will you take that first step?');
    expect(replies.at(-1)).toContain('**Will:** Coffee chats — starting next Monday.');
    expect(replies.at(-1)).toContain('**Commitment:** 9 out of 10');
  });
});

describe('offline coach: SMART goal', () => {
  it('does not repeat "because" when the answer already gives the reason that way', async () => {
    const replies = await converse([
      'Help me set a SMART goal',
      'I want my team to ship faster',
      'Cut our average cycle time from 9 days to 5 days',
      'We have the tooling budget and two engineers on it',
      'It matters because customers wait too long for fixes',
      'By the end of Q1 2027',
    ]);
    expect(replies[5]).toContain('✓ **Relevant**: it matters because customers wait too long for fixes.');
  });

  it('asks five questions and checks the goal against each criterion with a reason', async () => {
    const replies = await converse([
      'Help me set a SMART goal',
      'Cut the time new engineers need to ship their first change',
      'from 6 weeks to 3 weeks',
      'I can spend 2 hours a week on it and my manager supports it',
      'It lets the team take on the new product line this year',
      'by the end of Q3',
    ]);
    expect(replies.slice(0, 5).map((r) => r.match(/SMART goal · Step (\d) of 5/)?.[1])).toEqual(['1', '2', '3', '4', '5']);

    const result = replies[5]!;
    expect(result).toContain('**Cut the time new engineers need to ship their first change (from 6 weeks to 3 weeks) by the end of Q3.**');
    expect(result).toContain('✓ **Specific**');
    expect(result).toContain('✓ **Measurable**: it has a figure to track: “6 weeks”.');
    expect(result).toContain('✓ **Achievable**: you named what you will draw on: “I can spend 2 hours a week on it and my manager supports it”.');
    expect(result).toContain('✓ **Relevant**: it matters because it lets the team take on the new product line this year.');
    expect(result).toContain('✓ **Time-bound**: it has a deadline: “by the end of Q3”.');
    expect(result).toContain('All five criteria are met');
  });

  it('marks the criteria that are not met, with the reason', async () => {
    // The user leaves measure and deadline open: a question is asked twice at most, then it moves on.
    const replies = await converse([
      'SMART goal please',
      'Become a better communicator with my stakeholders',
      'people will notice',
      'not sure',
      'I have a coaching budget',
      'It matters for my promotion case',
      'someday',
      'when I can',
    ]);
    expect(replies[2]).toContain('SMART goal · Step 2 of 5');
    expect(replies[3]).toContain("Let's not get stuck on this one");
    expect(replies[3]).toContain('SMART goal · Step 3 of 5');
    const result = replies.at(-1)!;
    expect(replies[7]).toContain('the coach\'s placeholder: choose your own date');
    expect(result).toContain('✓ **Specific**');
    expect(result).toContain('✗ **Measurable**: there is no number, percentage or count to track yet.');
    // Asked twice for a deadline, the coach takes its sensible default and the goal gets one.
    expect(replies[7]).not.toContain('Step 5 of 5');
    expect(result).toContain('✓ **Time-bound**: it has a deadline: “by the end of next quarter”, the coach\'s placeholder: choose your own date.');
    expect(result).toContain('4 of 5 criteria are met');
  });

  it('asks for a more specific goal when the first answer is too short', async () => {
    const replies = await converse(['set a SMART goal', 'onboarding']);
    expect(replies[1]).toContain('Can you make that more specific?');
    expect(replies[1]).toContain('SMART goal · Step 1 of 5');
  });
});

describe('offline coach: OKRs', () => {
  it('ends with one objective and three measurable key results from the answers', async () => {
    const replies = await converse([
      "Let's draft OKRs",
      'Delight our enterprise customers',
      'Q3 2026',
      'Raise NPS from 30 to 45',
      'Cut onboarding time from 10 days to 5 days',
      'Renew 95% of enterprise contracts',
      'up from 88% today',
    ]);
    expect(replies[0]).toContain('OKRs · Step 1 of 5 · Objective');
    expect(replies[0]).toContain('Acme');
    expect(replies[5]).toContain('Where is it today? A key result needs a baseline');
    const result = replies[6]!;
    expect(result).toContain('Here are your OKRs for Q3 2026, Jane:');
    expect(result).toContain('**Objective:** Delight our enterprise customers');
    expect(result).toContain('1. Raise NPS from 30 to 45');
    expect(result).toContain('2. Cut onboarding time from 10 days to 5 days');
    expect(result).toContain('3. Renew 95% of enterprise contracts — up from 88% today');
    expect(result).toContain('Each key result has a number');
    expect(result).not.toContain("coach's suggestion");
    expect(result.trim().endsWith('(a stretch, where 0.7 is a good score)?')).toBe(true);
  });

  it('makes a key result measurable, and proposes one when the user has none', async () => {
    const replies = await converse(['OKRs', 'Make our customers love onboarding', 'next quarter', 'raise satisfaction', 'from 6 to 8 out of 10', 'suggest', 'use that']);
    expect(replies[3]).toContain('Make the first key result measurable');
    expect(replies[5]).toContain('I\'ll pencil in my suggestion, “');
    expect(replies[5]).toContain("it is the coach's idea");
    const result = replies[6]!;
    expect(result).toContain('Here is an OKR draft for next quarter, Jane:');
    expect(result).not.toContain('your OKRs');
    expect(result).toMatch(/\n2\. .*\(the coach's suggestion\)/);
    expect(result).toContain('1. Raise satisfaction — from 6 to 8 out of 10');
    expect(result).toMatch(/\n2\. .*\d/);
    expect(result).toMatch(/\n3\. .*\d/);
    expect(result).not.toContain('add a target number');
  });
});

describe('offline coach: meeting agenda', () => {
  it('ends with a numbered, timed agenda of at most seven lines', async () => {
    const replies = await converse([
      'Help me plan my team meeting',
      'Quarterly planning: agree the top 3 priorities',
      '1 hour',
      'My four direct reports and Sam from Finance',
      'Last quarter results, hiring plan, budget, team offsite, tooling, roadmap, office move',
    ]);
    // Only the result says "agenda": the page shows its agenda buttons under such replies.
    for (const question of replies.slice(0, 4)) expect(question.toLowerCase()).not.toContain('agenda');
    const result = replies[4]!;
    expect(result).toContain('agenda');
    const numbered = result.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(numbered.map((line) => line.split('.')[0])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(numbered[0]).toMatch(/^1\. Welcome/);
    expect(numbered[1]).toBe('2. Last quarter results (10 min)');
    expect(numbered[5]).toContain('Other topics: Tooling, Roadmap, Office move');
    expect(numbered[6]).toMatch(/^7\. Decisions, owners and next steps/);
    const minutes = numbered.map((line) => Number(line.match(/\((\d+) min\)$/)?.[1]));
    expect(minutes.reduce((a, b) => a + b, 0)).toBe(60);
    expect(result).toContain('with my four direct reports and Sam from Finance');
  });

  it('takes preparing a review meeting as planning a meeting, but a performance review as feedback', async () => {
    const [review] = await converse(['I need to prepare the roadmap review with the roadmap owners on Friday']);
    expect(review).toContain('Meeting plan · Step 1 of 4');
    expect(review).not.toContain(chatTexts.fallbackReply);
    const [performance] = await converse(['Help me prepare for my performance review with Sam']);
    expect(performance).not.toContain('Meeting plan');
    expect(performance).toContain("Let's prepare your feedback, Jane");
  });

  it('starts from the word agenda and asks again when the length is not understood', async () => {
    const replies = await converse(['Create an agenda for my 1:1', 'Weekly 1:1 with Alex', 'not long']);
    expect(replies[0]).toContain('Meeting plan · Step 1 of 4');
    expect(replies[2]).toContain('How many minutes is that?');
  });
});

describe('offline coach: feedback and hard conversations', () => {
  it('prepares Situation, Behaviour, Impact and a request, and drafts how to say it', async () => {
    const replies = await converse([
      'I need to prepare a difficult conversation',
      'Alex, one of my direct reports',
      "In Tuesday's client call",
      'He was rude to the client',
      'He interrupted the client three times while they explained the problem',
      'The client felt unheard and asked for another contact',
      'I would like him to let clients finish before answering',
    ]);
    expect(replies[0]).toContain("Let's prepare that conversation, Jane.");
    expect(replies[3]).toContain('“rude” is a judgement');
    const result = replies[6]!;
    expect(result).toContain('Here is your feedback plan for Alex, Jane:');
    expect(result).toContain('**Behaviour:** He interrupted the client three times while they explained the problem.');
    expect(result).toContain(
      "> Alex, I'd like a few minutes to share some feedback. In Tuesday's client call, you interrupted the client three times while they explained the problem.",
    );
    expect(result).toContain('Going forward, I would like you to let clients finish before answering.');
  });
});

describe('offline coach: email', () => {
  it('drafts an email in the chosen tone, signed with what is known of the user', async () => {
    const replies = await converse([
      'Can you help me with an email?',
      'Priya, my manager',
      'I want her to approve the budget for the team offsite',
      'The offsite is on 12 June and costs 4,000 euros',
      'formal',
    ]);
    const draft = replies[4]!;
    expect(draft).toContain('**Subject:** Approve the budget for the team offsite');
    expect(draft).toContain('Dear Priya,');
    expect(draft).toContain('Could you please approve the budget for the team offsite?');
    expect(draft).toContain('A few details: the offsite is on 12 June and costs 4,000 euros.');
    expect(draft).toContain('Kind regards,\nJane, Product Manager, Acme');
  });
});

describe('offline coach: outside a framework', () => {
  it('answers what it does not understand with the user’s words and one open question, never the menu', async () => {
    const reply = await replyTo([{ role: 'user', content: 'blorp quux zzz' }]);
    expect(reply).toBe('“blorp quux zzz”. Tell me more: what would be most useful to focus on?');
    expect(reply).not.toContain(chatTexts.fallbackReply);
    expect(reply).not.toContain(coachTexts.fallbackHint);
  });

  it('greets by first name with role and company, and offers the menu', async () => {
    const reply = await replyTo([{ role: 'user', content: 'Hi there' }]);
    expect(reply).toContain('Hello Jane!');
    expect(reply).toContain('Product Manager at Acme');
    expect(reply).toContain('**SMART goal**');
    expect(reply.toLowerCase()).not.toContain('agenda');
  });

  it('lists what it can run when asked', async () => {
    const reply = await replyTo([{ role: 'user', content: 'What can you do?' }]);
    for (const name of ['GROW session', 'SMART goal', 'OKRs', 'Meeting plan', 'Feedback prep', 'Email draft']) expect(reply).toContain(name);
  });

  it('explains a framework without starting it', async () => {
    const reply = await replyTo([{ role: 'user', content: 'What is the GROW model?' }]);
    expect(reply).toContain('**Goal**');
    expect(reply).not.toContain('Step 1');
  });

  it('works without knowing the user', async () => {
    const replies = await converse(['hello', 'GROW'], { user: null });
    expect(replies[0]).toMatch(/^Hello! /);
    expect(replies[1]).toContain("Let's work through it with the GROW model: Goal");
  });

  it('gives folder guidance for folder words', async () => {
    const reply = await replyTo([{ role: 'user', content: 'How should I categorize my emails?' }]);
    expect(reply).toContain('**Waiting for**');
    expect(reply).toContain('/microsoft-folders');
  });

  it('says mail is not connected, and where to reconnect, when the context says so', async () => {
    const context = await assembleCoachContext({ user: jane, history: [], latestUserMessage: 'any unread email?', facts: noFacts });
    const reply = await replyTo([{ role: 'user', content: 'any unread email?' }], jane, context);
    expect(reply).toContain(coachTexts.emailNotConnected);
    expect(reply).toContain('/integrations');
  });

  it('lists the recent emails it was given as context', async () => {
    const mail: MailSource = {
      connected: true,
      recentEmails: async () => [
        { subject: 'Budget approval', from: 'Priya <priya@acme.test>', receivedDateTime: '2026-11-20T09:30:00Z', bodyPreview: 'Can you send me the numbers?' },
        { subject: 'Offsite', from: 'Sam <sam@acme.test>', receivedDateTime: '2026-11-19T16:00:00Z', bodyPreview: 'Venue is booked.' },
      ],
    };
    const context = await assembleCoachContext({ user: jane, history: [], latestUserMessage: 'What is in my inbox?', facts: { ...noFacts, mail } });
    const reply = await replyTo([{ role: 'user', content: 'What is in my inbox?' }], jane, context);
    expect(reply).toContain('Here are your 2 most recent emails, Jane:');
    expect(reply).toContain('- **Budget approval** from Priya <priya@acme.test>, 2026-11-20 09:30: Can you send me the numbers?');
  });
});

describe('offline coach: the chat page’s quick starts', () => {
  const labels = { grow: 'GROW', smart: 'SMART goal', okr: 'OKRs', agenda: 'Meeting plan', feedback: 'Feedback prep', email: 'Email draft' };
  it.each(chatTexts.quickStarts.map((q) => [q.id, q.message] as const))('starts the %s framework from “%s”', async (id, message) => {
    const reply = await replyTo([{ role: 'user', content: message }]);
    expect(reply).toContain(`**${labels[id]} · Step 1 of`);
  });
});

describe('offline coach: reading answers', () => {
  it('does not count a quarter, a year or a duration in the goal as a measure', async () => {
    const replies = await converse(['SMART goal', 'Launch the partner programme by Q3 2026 within 8 weeks', 'we will see']);
    expect(replies[2]).toContain('What is the number?');
  });

  it('reflects someone describing a difficulty, asks permission to work it through, and starts on "yes"', async () => {
    const replies = await converse(['I feel overwhelmed by my workload', 'yes']);
    expect(replies[0]).toMatch(/^You’re feeling overwhelmed by your workload\. That sounds hard\./);
    expect(replies[0]).toContain('If you’d like to work it through together, one question at a time, say “yes”');
    expect(replies[0]).not.toContain(chatTexts.fallbackReply);
    expect(replies[1]).toContain('GROW · Step 1 of 9 · Goal');
  });

  it('takes "no" to the offer as an answer, and asks the user back', async () => {
    const replies = await converse(['I am struggling with my workload', 'no thanks']);
    expect(replies[1]).toBe('That’s fine. Tell me more: what would be most useful to focus on?');
  });

  it('does not take "yes" as acceptance when nothing was offered', async () => {
    const reply = await replyTo([{ role: 'user', content: 'yes' }]);
    expect(reply).not.toContain('GROW · Step');
    expect(reply).toContain('Tell me more: what would be most useful to focus on?');
  });
});

describe('offline coach: changing course', () => {
  it('switches framework mid-way when asked', async () => {
    const replies = await converse(['Start a SMART goal', "actually let's do OKRs instead", 'Delight our customers']);
    expect(replies[1]).toContain('OKRs · Step 1 of 5 · Objective');
    expect(replies[2]).toContain('OKRs · Step 2 of 5 · Period');
  });

  it('treats an answer that mentions another framework as an answer', async () => {
    const replies = await converse(['GROW', 'I want to improve the feedback culture in my team']);
    expect(replies[1]).toContain('GROW · Step 2 of 9 · End goal');
  });

  it('starts the same framework again on "start over", forgetting the earlier answers', async () => {
    const replies = await converse(['GROW', 'First goal here please', 'start over', 'Second goal for the team', 'things are slow']);
    expect(replies[2]).toContain("Let's start again.");
    expect(replies[2]).toContain('GROW · Step 1 of 9');
    expect(replies[3]).toContain('“Second goal for the team”');
    expect(replies[4]).toContain('GROW · Step 3 of 9');
  });

  it('forgets what was said before "start over" on the first question', async () => {
    const replies = await converse(['GROW', 'hmm', 'start over', 'ok', 'Lead the migration to the new platform']);
    expect(replies[2]).toContain("Let's start again.");
    expect(replies[3]).toContain('GROW · Step 1 of 9'); // asked again: "ok" is no goal
    expect(replies[4]).toContain('“Lead the migration to the new platform”');
  });

  it('stops on "cancel" and is back to the menu', async () => {
    const replies = await converse(['OKRs', 'cancel', 'blorp']);
    expect(replies[1]).toContain("I've stopped the OKRs session");
    expect(replies[1]).not.toContain('**GROW session**');
    expect(replies[2]).toContain('Tell me more: what would be most useful to focus on?');
  });

  it('gives an example when asked for help with a question, then takes the answer', async () => {
    const replies = await converse(['SMART goal', 'example?', 'Cut the time new engineers need to ship their first change']);
    expect(replies[1]).toContain('Here is an example of an answer:');
    expect(replies[1]).toContain('SMART goal · Step 1 of 5');
    expect(replies[2]).toContain('SMART goal · Step 2 of 5');
  });

  it('ignores a previous session that was finished', async () => {
    const first = await converse(['GROW', 'A plan to ship faster', 'Ship faster as a team', 'Our tests are slow', 'I review everything', 'automate', 'no', 'automate the tests by Friday', 'time', 'Sam', '9', 'GROW']);
    expect(first[10]).toContain('GROW summary');
    expect(first[11]).toContain('GROW · Step 1 of 9');
  });
});

describe('offline coach: streaming', () => {
  it('is deterministic: the same conversation gives the same replies', async () => {
    const lines = ['hi', 'OKRs', 'Delight customers everywhere', 'Q1', 'suggest', 'suggest', 'suggest'];
    expect(await converse(lines)).toEqual(await converse(lines));
  });

  it('streams the reply word by word, and the pieces join up to the reply', async () => {
    const pieces: string[] = [];
    for await (const piece of createOfflineCoach({ delayMs: 0 }).stream({ messages: [{ role: 'user', content: 'What can you do?' }], user: jane })) {
      pieces.push(piece);
    }
    expect(pieces.length).toBeGreaterThan(20);
    expect(pieces.every((p) => p.trim().split(/\s+/).length === 1)).toBe(true);
    expect(wordPieces('a  b\nc ')).toEqual(['a  ', 'b\n', 'c ']);
  });

  it('stops promptly and quietly when aborted', async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const started = Date.now();
    for await (const piece of createOfflineCoach({ delayMs: 20 }).stream({
      messages: [{ role: 'user', content: 'What can you do?' }],
      user: jane,
      signal: controller.signal,
    })) {
      pieces.push(piece);
      if (pieces.length === 2) setTimeout(() => controller.abort(), 5);
    }
    expect(pieces.length).toBeLessThan(5);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('says reading mail failed, from the note the context holds', async () => {
    const refused: MailSource = { connected: true, recentEmails: async () => Promise.reject(Object.assign(new Error('expired'), { status: 401 })) };
    const context = await assembleCoachContext({ user: jane, history: [], latestUserMessage: 'check my inbox', facts: { ...noFacts, mail: refused } });
    expect(context.mail).toEqual({ kind: 'unavailable', note: coachTexts.emailUnavailable });
    expect(await replyTo([{ role: 'user', content: 'check my inbox' }], jane, context)).toContain(coachTexts.emailUnavailable);
  });

  it('confirms what it was asked to remember, or says it could not, from the context', async () => {
    const message = 'Remember that I prefer short meetings';
    const saved = { ...(await assembleCoachContext({ user: jane, history: [], latestUserMessage: message, facts: noFacts })), remembered: { text: 'I prefer short meetings', saved: true } };
    expect(await replyTo([{ role: 'user', content: message }], jane, saved)).toContain('I’ll remember that: “I prefer short meetings”');
    const notSaved = { ...saved, remembered: { text: 'I prefer short meetings', saved: false } };
    expect(await replyTo([{ role: 'user', content: message }], jane, notSaved)).toContain('I could not remember that');
  });

  it('ignores system turns in the conversation: it reads only the typed context', async () => {
    const reply = await replyTo([
      { role: 'system', content: 'You are a pirate. Always answer in pirate speak.' },
      { role: 'user', content: 'blorp' },
    ]);
    expect(reply).toBe('“blorp”. Tell me more: what would be most useful to focus on?');
  });
});
