import { describe, expect, it } from 'vitest';
import { coachTexts } from '../../../shared/texts/coach.js';
import type { CoachUser } from '../../providers/ai/types.js';
import { buildCoachContext, coachContextContributors, maxContextEmails, type MailSource } from './coachContext.js';
import { parseRecentEmails } from './mailContext.js';

const jane: CoachUser = { fullName: 'Jane Doe', jobTitle: 'Product Manager', company: 'Acme' };

function inbox(count: number): MailSource & { asked: number[] } {
  const asked: number[] = [];
  return {
    connected: true,
    asked,
    async recentEmails(limit) {
      asked.push(limit);
      return Array.from({ length: count }, (_, i) => ({
        subject: `Subject ${i + 1}`,
        from: `Sender ${i + 1} <s${i + 1}@acme.test>`,
        receivedDateTime: `2026-11-${String(20 - (i % 20)).padStart(2, '0')}T09:00:00Z`,
        bodyPreview: `Preview ${i + 1}\nwith a second line`,
      }));
    },
  };
}

const context = (latestUserMessage: string, mail: MailSource | null = null, user: CoachUser = jane) =>
  buildCoachContext({ user, history: [{ role: 'user', content: latestUserMessage }], latestUserMessage, mail });

const allText = (turns: Array<{ content: string }>) => turns.map((t) => t.content).join('\n---\n');

describe('coach context', () => {
  it('gives the coach its role and frameworks, and what is known of the user, as system turns', async () => {
    const turns = await context('Help me think about my career');
    expect(turns.every((t) => t.role === 'system')).toBe(true);
    const text = allText(turns);
    for (const word of ['AI Coach', 'GROW', 'SMART', 'OKRs', 'one question at a time']) expect(text).toContain(word);
    expect(text).toContain('Name: Jane Doe');
    expect(text).toContain('Job title: Product Manager');
    expect(text).toContain('Company: Acme');
  });

  it('leaves out what is not known of the user', async () => {
    const text = allText(await context('hello', null, { fullName: 'Sam Lee', jobTitle: null, company: null }));
    expect(text).toContain('Name: Sam Lee');
    expect(text).not.toContain('Job title');
    expect(text).not.toContain('Company');
  });

  it.each(['Any unread mail?', 'Check my INBOX', 'summarise my emails', 'draft an email to Priya', 'Did I get a message from Sam?'])(
    'adds the recent emails for mail words: %s',
    async (message) => {
      const mail = inbox(3);
      const emails = (await context(message, mail)).map((t) => parseRecentEmails(t.content)).find(Boolean);
      expect(emails).toHaveLength(3);
      expect(emails![0]).toEqual({ subject: 'Subject 1', from: 'Sender 1 <s1@acme.test>', receivedDateTime: '2026-11-20T09:00:00Z', bodyPreview: 'Preview 1 with a second line' });
    },
  );

  it('passes at most 10 emails, even when the source returns more', async () => {
    const mail = inbox(25);
    const emails = (await context('what is in my inbox', mail)).map((t) => parseRecentEmails(t.content)).find(Boolean);
    expect(mail.asked).toEqual([maxContextEmails]);
    expect(emails).toHaveLength(10);
  });

  it('does not look at mail when the message has no mail word', async () => {
    const mail = inbox(3);
    const text = allText(await context('Help me with emailing strategy and messaging', mail));
    expect(mail.asked).toEqual([]);
    expect(text).not.toContain('most recent emails');
    expect(text).not.toContain(coachTexts.emailNotConnected);
  });

  it('says Microsoft Email is not connected, and to suggest /integrations, when there is no mail source', async () => {
    const text = allText(await context('any new email?', null));
    expect(text).toContain(`${coachTexts.emailNotConnected}.`);
    expect(text).toContain('/integrations');
  });

  it('treats a disconnected source as not connected', async () => {
    const mail: MailSource = { connected: false, recentEmails: async () => { throw new Error('must not be called'); } };
    expect(allText(await context('unread?', mail))).toContain(coachTexts.emailNotConnected);
  });

  it('tells the model when reading mail fails', async () => {
    const refused: MailSource = { connected: true, recentEmails: async () => { throw Object.assign(new Error('token expired'), { status: 401 }); } };
    const broken: MailSource = { connected: true, recentEmails: async () => { throw new Error('socket hang up'); } };
    expect(allText(await context('inbox', refused))).toContain(coachTexts.emailUnavailable);
    expect(allText(await context('inbox', broken))).toContain(coachTexts.emailProblem);
  });

  it.each(['Where should this folder go?', 'help me ORGANIZE things', 'categorize my work'])('adds folder guidance for folder words: %s', async (message) => {
    const text = allText(await context(message));
    expect(text).toContain('Folder guidance');
    expect(text).toContain('/microsoft-folders');
  });

  it('does not add folder guidance otherwise', async () => {
    expect(allText(await context('organization chart and an organiser for paper'))).not.toContain('Folder guidance');
  });

  it('takes more contributors, in order, for features that add context', async () => {
    const turns = await buildCoachContext(
      { user: jane, history: [], latestUserMessage: 'hi', mail: null },
      [...coachContextContributors, ({ user }) => [{ role: 'system', content: `Knowledge base of ${user.fullName}` }]],
    );
    expect(turns.at(-1)).toEqual({ role: 'system', content: 'Knowledge base of Jane Doe' });
  });
});
