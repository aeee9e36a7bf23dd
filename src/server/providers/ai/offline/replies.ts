import { coachTexts } from '../../../../shared/texts/coach.js';
import type { MailFacts } from '../contract.js';
import { frameworkList } from './frameworks/index.js';
import { byName, roleAndCompany } from './scope.js';
import type { CoachScope, Framework } from './types.js';
import { dropLastWord } from '../../../../shared/trimText.js';
import { clause } from './language.js';
import { feelingIn, mirror, reflect, takeawayQuestion } from './listen.js';

export { takeawayQuestion };

// The coach's replies outside a framework: greeting, menu, thanks, explanations, mail and
// folders, and, when nothing fits, a reflection and one open question (never the menu).

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
  return `You're welcome${byName(scope)}! What would you like to work on next?`;
}

export function explainReply(framework: Framework): string {
  return `${framework.explanation}\n\nWant to try it? Just say “${framework.startPhrase}”.`;
}

export function cancelReply(scope: CoachScope, stopped: Framework | null): string {
  const lead = stopped ? `No problem, I've stopped the ${stopped.label} session.` : 'Nothing is running right now.';
  return `${lead} What would you like to do instead${byName(scope)}?`;
}

/** The question that ends an offer; the engine finds it again when the user says "yes". */
export function offerQuestion(framework: Framework): string {
  return `Shall we ${framework.startPhrase}?`;
}

/**
 * The invitation after a reflection and its open question: the session named, left to the user;
 * "yes" starts it. No question of its own, so that the reply asks one open question only.
 */
export function offerLine(framework: Framework): string {
  return `If you’d like to work it through together, one question at a time, say “yes” and we’ll ${framework.startPhrase}.`;
}

/** Whether a reply of the coach offered this framework (so that "yes" starts it). */
export function offers(reply: string, framework: Framework): boolean {
  return reply.includes(offerQuestion(framework)) || reply.includes(`we’ll ${framework.startPhrase}.`);
}

/** The question that ends the listening fallback; an answer to it is taken up, never a menu. */
export const focusQuestion = 'Tell me more: what would be most useful to focus on?';

/** Asked once the user has said what to focus on: what they want, in their words. */
export const wantedOutcomeQuestion = 'What would a good outcome look like for you?';

/** Someone describing a difficulty: what they said (and felt), one open question, and the offer to work it through. */
export function challengeReply(_scope: CoachScope, grow: Framework, message: string): string {
  return `${reflect(message)} ${focusQuestion} ${offerLine(grow)}`;
}

/**
 * What the coach says to a message it does not understand: the user's words back, and one open
 * question. Never the menu. A named feeling is reflected, and working it through is offered.
 */
export function fallbackReply(message: string, grow: Framework): string {
  const reflection = reflect(message);
  if (feelingIn(message)) return `${reflection} ${focusQuestion} ${offerLine(grow)}`;
  return `${reflection} ${focusQuestion}`;
}

/** The answer to the fallback's question: taken up, the outcome the user wants asked, and working it through offered. */
export function focusAnswerReply(message: string, grow: Framework): string {
  return `${reflect(message)} ${wantedOutcomeQuestion} ${offerLine(grow)}`;
}

/** "No" to an offer: fine, and the question back to the user. */
export function declinedReply(): string {
  return `That’s fine. ${focusQuestion}`;
}

/** The question asked about a focus-time problem; its answer is taken up with a first step. */
export const protectQuestion = 'What would protecting time for that work look like in a good week?';
export const firstStepQuestion = 'What is one step you could take this week to get closer to that?';

/** Meetings eating the time for focused work: said back as a focus-time problem, and one question. */
export function focusTimeReply(message: string): string {
  return `${reflect(message)} That sounds like a focus-time problem: the meetings are taking the hours your most important work needs. ${protectQuestion}`;
}

export function firstStepReply(message: string): string {
  return `${reflect(message)} ${firstStepQuestion}`;
}

/** The end of a short thread: the user's own step said back, no further question. */
export function closingReply(message: string): string {
  return `${reflect(message)} That is your step, in your words. Put it in your calendar now, and come back to tell me how it went.`;
}


export function takeawayReply(message: string, scope: CoachScope): string {
  const said = clause(message);
  const that = /^that\s+/i.exec(said);
  const takeaway = that ? `You take away that ${mirror(said.slice(that[0].length))}.` : `You take away: “${said}”.`;
  return `${takeaway} That is yours to keep${byName(scope)}. When you have taken the first step, come back and tell me how it went.`;
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
