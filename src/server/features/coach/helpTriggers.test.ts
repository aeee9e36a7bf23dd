import { describe, expect, it } from 'vitest';
import { idleIntent } from '../../providers/ai/offline/intents.js';
import { assembleCoachContext } from './coachContext.js';
import { noFacts, type MailSource } from '../../providers/ai/contract.js';
import { folderTrigger, mailTrigger } from '../../providers/ai/helpTriggers.js';

// The keyword routing of the product spec's states and transitions, with plurals and British spellings.
const table: Array<[message: string, mail: boolean, folder: boolean]> = [
  ['Check my email', true, false],
  ['Any new emails?', true, false],
  ['Summarise my E-MAILS please', true, false],
  ['What is in my inbox', true, false],
  ['I have three inboxes', true, false],
  ['one message from Sam', true, false],
  ['Read my messages', true, false],
  ['anything unread?', true, false],
  ['new mail today?', true, false],
  ['Where should this folder go?', false, true],
  ['Make me some folders', false, true],
  ['a subfolder for invoices', false, true],
  ['help me organize things', false, true],
  ['help me organise things', false, true],
  ['I am organising my week', false, true],
  ['organizing the team', false, true],
  ['It organises itself', false, true],
  ['everything is organised', false, true],
  ['categorise my work', false, true],
  ['categorizing receipts', false, true],
  ['organise my messages into folders', true, true],
  // Not the words themselves: no trigger.
  ['the organization chart', false, false],
  ['an organiser on my desk', false, false],
  ['messaging app', false, false],
  ['emailing is tiring', false, false],
  ['a mailbox of paper', false, false],
  ['a category of its own', false, false],
];

describe('help triggers', () => {
  it.each(table)('%s: mail %s, folder %s', (message, mail, folder) => {
    expect(mailTrigger.test(message)).toBe(mail);
    expect(folderTrigger.test(message)).toBe(folder);
  });

  it.each(table)('the coach context and the offline coach follow it: %s', async (message, mail, folder) => {
    const connected: MailSource = { connected: true, recentEmails: async () => [] };
    const context = await assembleCoachContext({ user: { fullName: 'Jane Doe', jobTitle: null, company: null }, history: [], latestUserMessage: message, facts: { ...noFacts, mail: connected } });
    expect(context.folderGuidance).toBe(folder);
    expect(context.mail).toEqual(mail ? { kind: 'emails', emails: [] } : null);
    const intent = idleIntent(message).kind;
    expect(intent === 'folders' || intent === 'inbox').toBe(mail || folder);
    if (folder) expect(intent).toBe('folders');
  });

  it('stays linear on long input (no backtracking blow-up)', () => {
    const long = `${'organis'.repeat(20_000)}x ${'e-'.repeat(20_000)}`;
    const started = performance.now();
    expect(folderTrigger.test(long)).toBe(false);
    expect(mailTrigger.test(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
