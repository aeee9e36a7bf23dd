import { chatTexts } from '../../../../shared/texts/index.js';
import { coachTexts } from '../../../../shared/texts/coach.js';
import type { MailFacts } from '../../../features/coach/facts.js';
import { frameworkList } from './frameworks/index.js';
import { byName, roleAndCompany } from './scope.js';
import type { CoachScope, Framework } from './types.js';
import { dropLastWord } from '../../../../shared/trimText.js';

// The coach's replies outside a framework: greeting, menu, thanks, explanations, mail and
// folders, and the spec's fallback when nothing fits.

// The menu never says "agenda": the chat page would show its agenda buttons under it.
const menuLines: Record<Framework['id'], string> = {
  grow: '**GROW session**: work through a challenge step by step (Goal, Reality, Options, Will)',
  smart: '**SMART goal**: turn an intention into a goal that passes all five SMART checks',
  okr: '**OKRs**: one objective with three measurable key results',
  agenda: '**Meeting plan**: a timed, numbered running order for your next meeting',
  feedback: '**Feedback prep**: prepare feedback or a hard conversation (Situation, Behaviour, Impact)',
  email: '**Email draft**: write an email in the tone you choose',
};

export function menu(): string {
  return [
    ...frameworkList.map((f) => `- ${menuLines[f.id]}`),
    '',
    'Just say what you need, for example “help me set a SMART goal” or “plan my team meeting”.',
  ].join('\n');
}

export function greetingReply(scope: CoachScope): string {
  const role = roleAndCompany(scope);
  const hello = scope.firstName ? `Hello ${scope.firstName}!` : 'Hello!';
  const about = role ? ` What can I help you with in your work as ${role} today?` : ' What would you like to work on today?';
  return `${hello}${about} Here is what we can do together:\n\n${menu()}`;
}

export function menuReply(scope: CoachScope): string {
  return `Here is what I can do with you${byName(scope)}:\n\n${menu()}`;
}

export function thanksReply(scope: CoachScope): string {
  return `You're welcome${byName(scope)}! Anything else? ${coachTexts.fallbackHint}`;
}

export function explainReply(framework: Framework): string {
  return `${framework.explanation}\n\nWant to try it? Just say “${framework.startPhrase}”.`;
}

export function cancelReply(scope: CoachScope, stopped: Framework | null): string {
  const lead = stopped ? `No problem, I've stopped the ${stopped.label} session.` : 'Nothing is running right now.';
  return `${lead} What would you like to do instead${byName(scope)}?\n\n${menu()}`;
}

/** The question that ends an offer; the engine finds it again when the user says "yes". */
export function offerQuestion(framework: Framework): string {
  return `Shall we ${framework.startPhrase}?`;
}

export function challengeReply(scope: CoachScope, grow: Framework): string {
  return (
    `That sounds like something worth working through${byName(scope)}. A GROW session helps: we name the goal, look at where ` +
    `things stand, list your options and agree a next step, one question at a time. ${offerQuestion(grow)} Just say “yes”.`
  );
}

export function fallbackReply(): string {
  return `${chatTexts.fallbackReply} ${coachTexts.fallbackHint}`;
}

/** Mail questions, answered from the mail the context holds (null: the message did not reach mail). */
export function inboxReply(scope: CoachScope, mail: MailFacts | null): string {
  if (mail?.kind === 'emails') {
    if (!mail.emails.length) return `Your inbox has no recent emails${byName(scope)}.`;
    const items = mail.emails.map((e) => {
      const received = e.receivedDateTime.trim() ? `, ${receivedLabel(flat(e.receivedDateTime))}` : '';
      const preview = e.bodyPreview.trim() ? `: ${shorten(e.bodyPreview, 120)}` : '';
      return `- **${flat(e.subject, 200) || '(no subject)'}** from ${flat(e.from, 200) || 'unknown sender'}${received}${preview}`;
    });
    return [
      `Here are your ${mail.emails.length} most recent emails${byName(scope)}:`,
      '',
      ...items,
      '',
      'Want help with one of them? Say “help me reply to …” and we will draft the answer together.',
    ].join('\n');
  }
  const note = mail?.kind === 'unavailable' ? mail.note : coachTexts.emailNotConnected;
  return `${note}. ${coachTexts.reconnectOnIntegrations} Once it is connected I can go through your latest emails with you. Meanwhile I can help you write one: just say “help me write an email”.`;
}

/** One line, at most `max` characters (as the emails are shown to a model). */
function flat(text: string, max = Infinity): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${dropLastWord(flat.slice(0, max - 1))}…` : flat;
}

function receivedLabel(isoDate: string): string {
  // The date as sent, shortened to day and time; no clock or locale is involved.
  const match = isoDate.match(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/);
  return match ? `${match[1]} ${match[2]}` : isoDate;
}

export function foldersReply(scope: CoachScope): string {
  return [
    `Here is a simple way to organise your mail${byName(scope)}:`,
    '',
    '- **Action**: emails you need to act on. Keep it small and empty it every day.',
    '- **Waiting for**: things you are waiting on from others.',
    '- **Reference**: one folder per project or client, for what you need to keep.',
    '- **Archive**: everything that is done. Search finds it faster than sorting.',
    '',
    'Add rules for newsletters and recurring senders so that they skip the inbox, and spend ten minutes a day triaging. ' +
      'You can create folders on the Manage Folders page (/microsoft-folders) and move emails on the Microsoft Emails page (/microsoft-emails).',
  ].join('\n');
}
