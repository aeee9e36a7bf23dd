import { describe, expect, it } from 'vitest';
import { assembleCoachContext } from '../../../features/coach/coachContext.js';
import { chatTexts } from '../../../../shared/texts/index.js';
import { noFacts, type ChatTurn } from '../contract.js';
import { coachReply } from './engine.js';

// 'Modify the agenda' changes the agenda the coach wrote (in a prep chat, the one drafted from
// the invite), never starts the generic meeting-plan questions again; and agenda lines start with
// a capital while keeping the capitals their words have.
const user = { fullName: 'Alex Morgan', jobTitle: 'Engineering Manager', company: null };
const invite = {
  subject: 'Weekly team sync',
  start: '2026-12-03T09:30:00+01:00',
  end: '2026-12-03T10:15:00+01:00',
  organizer: { name: 'Alex Morgan', email: 'alex@northwind.example' },
  attendees: [{ name: 'Priya Shah', email: 'priya@northwind.example' }],
  location: 'Microsoft Teams',
  isOnline: true,
  body: 'Release 4.2 status, the deployment-frequency goal, blockers and asks.',
};

async function prepReply(turn: 'agenda' | 'follow-up', history: ChatTurn[]) {
  const latest = history.findLast((t) => t.role === 'user')?.content ?? '';
  const context = await assembleCoachContext({ user, history, latestUserMessage: latest, facts: { ...noFacts, meetings: { prep: { invite, mailSubjects: [], turn }, week: null } } });
  return coachReply({ messages: history, context, user });
}

const itemsOf = (text: string) => text.split('\n').filter((line) => /^\d\. /.test(line)).map((line) => line.replace(/^\d\. | \(\d+ min\)$/g, ''));
const minutesOf = (text: string) => text.split('\n').filter((line) => /^\d\. /.test(line)).reduce((sum, line) => sum + Number(/\((\d+) min\)$/.exec(line)![1]), 0);

describe('offline: modifying the agenda', () => {
  it('edits the prep chat’s agenda: the topic added, the meeting and its other items kept, the length unchanged', async () => {
    const draft = await prepReply('agenda', []);
    const request = `${chatTexts.modifyAgendaPrefix}add Hiring plan`;
    const text = await prepReply('follow-up', [{ role: 'assistant', content: draft }, { role: 'user', content: request }]);
    expect(text).not.toContain('Meeting plan · Step');
    expect(text).toContain('agenda for **Weekly team sync**');
    expect(itemsOf(text)).toEqual(['Welcome and the outcome we need', 'Release 4.2 status', 'The deployment-frequency goal', 'Blockers and asks', 'Hiring plan', 'Decisions, owners and next steps']);
    expect(minutesOf(text)).toBe(45);
  });

  it('removes, moves, renames and changes the length, one change after another', async () => {
    const draft = await prepReply('agenda', []);
    const text = await prepReply('follow-up', [
      { role: 'assistant', content: draft },
      { role: 'user', content: `${chatTexts.modifyAgendaPrefix}remove blockers and asks; move Release 4.2 status last; rename the deployment-frequency goal to Deployment frequency; make it 30 minutes` },
    ]);
    expect(itemsOf(text)).toEqual(['Welcome and the outcome we need', 'Deployment frequency', 'Release 4.2 status', 'Decisions, owners and next steps']);
    expect(minutesOf(text)).toBe(30);
    // A second change works on the changed agenda.
    const again = await prepReply('follow-up', [
      { role: 'assistant', content: draft },
      { role: 'user', content: 'Please modify the agenda: make it 30 minutes' },
      { role: 'assistant', content: text },
      { role: 'user', content: 'add Q3 roadmap first' },
    ]);
    expect(itemsOf(again)[1]).toBe('Q3 roadmap');
    expect(itemsOf(again)).toContain('Deployment frequency');
    const placed = await prepReply('follow-up', [
      { role: 'assistant', content: draft },
      { role: 'user', content: 'Please modify the agenda: put in Hiring plan. Move blockers and asks before Release 4.2 status' },
    ]);
    expect(itemsOf(placed).slice(1, 5)).toEqual(['Blockers and asks', 'Release 4.2 status', 'The deployment-frequency goal', 'Hiring plan']);
  });

  it('keeps the agenda and asks what to change when the request is empty or unclear', async () => {
    const draft = await prepReply('agenda', []);
    for (const request of [chatTexts.modifyAgendaPrefix, `${chatTexts.modifyAgendaPrefix}make it better somehow`]) {
      const text = await prepReply('follow-up', [{ role: 'assistant', content: draft }, { role: 'user', content: request }]);
      expect(itemsOf(text)).toEqual(itemsOf(draft));
      expect(text).toMatch(/for example “add /i);
    }
  });

  it('edits the agenda of the meeting-plan questions too, without asking them again', async () => {
    const history: ChatTurn[] = [];
    for (const said of ['Help me prepare a meeting agenda', 'Weekly sync: agree the priorities', '45 minutes', 'My four direct reports', 'Q1 budget, iOS release, API review']) {
      history.push({ role: 'user', content: said });
      history.push({ role: 'assistant', content: coachReply({ messages: history, user }) });
    }
    history.push({ role: 'user', content: `${chatTexts.modifyAgendaPrefix}move API review first` });
    const text = coachReply({ messages: history, user });
    expect(text).not.toContain('Meeting plan · Step');
    expect(itemsOf(text).slice(1, 4)).toEqual(['API review', 'Q1 budget', 'iOS release']);
  });
});

describe('offline: agenda lines keep their capitals', () => {
  it('starts each line drafted from the invite with a capital', async () => {
    const items = itemsOf(await prepReply('agenda', []));
    expect(items).toEqual(['Welcome and the outcome we need', 'Release 4.2 status', 'The deployment-frequency goal', 'Blockers and asks', 'Decisions, owners and next steps']);
  });

  it('keeps a word’s own capitals in the meeting plan’s topics', () => {
    const history: ChatTurn[] = [];
    for (const said of ['Help me prepare a meeting agenda', 'Release planning for the mobile app', '30 minutes', 'The mobile team', 'iOS release, eBay integration, QA sign-off']) {
      history.push({ role: 'user', content: said });
      history.push({ role: 'assistant', content: coachReply({ messages: history, user }) });
    }
    expect(itemsOf(history.at(-1)!.content)).toEqual(['Welcome and the outcome we need today', 'iOS release', 'eBay integration', 'QA sign-off', 'Decisions, owners and next steps']);
  });
});
