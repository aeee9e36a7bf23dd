import { describe, expect, it } from 'vitest';
import { assembleCoachContext } from '../../../features/coach/coachContext.js';
import { noFacts, type WeekMeeting } from '../contract.js';
import { coachReply } from './engine.js';

// The offline coach in a prep chat: a sensible agenda from the invite alone, and one
// reflective follow-up after the meeting; and the week read back when asked.
const user = { fullName: 'Alex Morgan', jobTitle: 'Engineering Manager', company: null };
const invite = {
  subject: 'Quarterly planning',
  start: '2026-11-26T10:00:00+01:00',
  end: '2026-11-26T11:00:00+01:00',
  organizer: { name: 'Alex Morgan', email: 'alex@contoso.example' },
  attendees: [{ name: 'Priya Patel', email: 'priya@contoso.example' }, { name: 'Sam Lee', email: 'sam@contoso.example' }],
  location: 'Board room',
  isOnline: false,
  body: 'Hi all,\n\nTopics:\n- Hiring plan\n- Budget for Q1\n\nThanks,\nAlex',
};

async function reply(turn: 'agenda' | 'reflection', history: Array<{ role: 'user' | 'assistant'; content: string }> = []) {
  const latest = [...history].reverse().find((t) => t.role === 'user')?.content ?? '';
  const context = await assembleCoachContext({ user, history, latestUserMessage: latest, facts: { ...noFacts, meetings: { prep: { invite, mailSubjects: ['Hiring plan numbers'], turn }, week: null } } });
  return coachReply({ messages: history, context, user });
}

describe('offline prep chats', () => {
  it('writes a timed agenda from the invite: its topics, its length, its attendees, at most seven items', async () => {
    const text = await reply('agenda');
    expect(text).toContain('agenda for **Quarterly planning**');
    expect(text).toContain('60 minutes, with Priya Patel, Sam Lee');
    expect(text).toMatch(/^2\. Hiring plan \(\d+ min\)$/m);
    expect(text).toMatch(/^3\. Budget for Q1 \(\d+ min\)$/m);
    expect(text).toContain('Hiring plan numbers');
    expect(text).not.toMatch(/^\d\. (?:Hi all|Thanks|Topics)/m);
    const items = text.split('\n').filter((line) => /^\d\. /.test(line));
    expect(items.length).toBeLessThanOrEqual(7);
    expect(items.at(-1)).toMatch(/^\d\. Decisions, owners and next steps/);
    const minutes = items.reduce((sum, line) => sum + Number(/\((\d+) min\)/.exec(line)![1]), 0);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it('answers how it went with what went well, what to change and the commitment to follow up', async () => {
    const text = await reply('reflection', [
      { role: 'assistant', content: 'Here is a draft agenda ...' },
      { role: 'user', content: 'We agreed the hiring plan. It ran over by 15 minutes. I will send the budget by Friday.' },
    ]);
    expect(text).toContain('**What went well:** “We agreed the hiring plan”');
    expect(text).toContain('**What to change:** “It ran over by 15 minutes”');
    expect(text).toContain('“I will send the budget by Friday”');
    expect(text).toMatch(/goal/);
  });
});

describe('offline: the coming week', () => {
  const ask = async (week: () => Promise<WeekMeeting[]>) => {
    const message = 'What is on my calendar this week?';
    const context = await assembleCoachContext({ user, history: [], latestUserMessage: message, facts: { ...noFacts, meetings: { prep: null, week } } });
    return coachReply({ messages: [{ role: 'user', content: message }], context, user });
  };

  it('reads back the meetings it was given, one a line, with their attendees', async () => {
    const text = await ask(async () => [{ subject: 'Design  review', start: '2026-11-30T10:00:00+01:00', end: '2026-11-30T11:00:00+01:00', attendees: ['Priya Patel', 'Sam Lee'] }]);
    expect(text).toContain('Here is what is on your calendar, Alex:');
    expect(text).toContain('- Monday 30 November, 10:00 to 11:00: Design review (with Priya Patel, Sam Lee)');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // No agenda buttons under a list of meetings.
    expect(text).not.toMatch(/agenda/i);
  });

  it('says the calendar is empty, and says it cannot be read when reading it fails', async () => {
    expect(await ask(async () => [])).toContain('Your calendar shows no meetings in the coming days, Alex.');
    const failed = await ask(async () => Promise.reject(new Error('401')));
    expect(failed).toContain('I cannot read your calendar right now');
    expect(failed).toContain('/integrations');
  });
});
