import type { MeetingPrep, WeekFacts, WeekMeeting } from '../contract.js';
import { byName } from './scope.js';
import { capitalize, clause, listItems, lowerCommonFirst } from './language.js';
import type { CoachScope } from './types.js';

// The offline coach's meeting replies: an agenda written from the invite alone (and
// the recent mail subjects when given), the one reflective follow-up after the meeting, and the
// coming week read back. Deterministic like the rest of the offline coach.

/** The invite's facts as the replies use them: one line each, people by name (or address). */
type Prep = { subject: string; start: string; end: string; attendees: string[]; body: string; mailSubjects: string[] };

const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const personName = (p: { name: string; email: string }) => oneLine(p.name || p.email, 100);

function prepOf({ invite, mailSubjects }: MeetingPrep): Prep {
  return {
    subject: oneLine(invite.subject),
    start: invite.start,
    end: invite.end,
    attendees: invite.attendees.map(personName),
    body: invite.body.trim(),
    mailSubjects: mailSubjects.map((s) => oneLine(s)),
  };
}

const maxItems = 7;

function minutesBetween(start: string, end: string): number {
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms > 0 ? Math.min(Math.round(ms / 60_000), 480) : 30;
}

/** "Thursday 26 November, 10:00" from the ISO time with its offset (the wall time as written). */
function when(start: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(start);
  if (!match) return start;
  const [, y, m, d, h, mi] = match;
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const weekday = day.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  const month = day.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${weekday} ${Number(d)} ${month}, ${h}:${mi}`;
}

/** Topics the invite's text names: its list items and short lines, greetings and sign-offs left out. */
function topicsIn(body: string): string[] {
  const lines = body
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter((line) => line && line.length <= 120 && !line.endsWith(':') && !/^(?:hi|hello|dear|hey|thanks|thank you|best|regards|cheers|join|microsoft teams|meeting id|passcode)\b|^https?:/i.test(line) && !/^_+$/.test(line));
  const items = lines.flatMap((line) => (/[,;]/.test(line) && line.length <= 80 ? listItems(line) : [clause(line)]));
  // An agenda line starts with a capital ("blockers and asks" from "status, blockers and asks"),
  // and the words' own capitals stay as the invite wrote them.
  const topics = items.map((item) => capitalize(item.replace(/^(?:and|or|also|then)\s+/i, ''))).filter(Boolean);
  return [...new Set(topics.filter((item) => item.split(/\s+/).length <= 14))].slice(0, 4);
}

function timed(titles: string[], minutes: number): Array<{ title: string; minutes: number }> {
  const opening = Math.max(2, Math.round(minutes * 0.1));
  const closing = Math.max(3, Math.round(minutes * 0.15));
  const middle = Math.max(titles.length - 2, 1);
  const each = Math.max(2, Math.floor((minutes - opening - closing) / middle));
  return titles.map((title, i) => ({ title, minutes: i === 0 ? opening : i === titles.length - 1 ? closing : each }));
}

export function prepAgendaReply(meeting: MeetingPrep, scope: CoachScope): string {
  const prep = prepOf(meeting);
  const subject = clause(prep.subject) || 'your meeting';
  const minutes = minutesBetween(prep.start, prep.end);
  const topics = topicsIn(prep.body);
  const middle = topics.length ? topics : [`Where things stand on ${subject}`, 'Options and open questions'];
  const threads = prep.mailSubjects.length ? [`Open threads from recent emails: ${prep.mailSubjects.slice(0, 2).map((s) => `“${clause(s)}”`).join(', ')}`] : [];
  const titles = ['Welcome and the outcome we need', ...middle, ...threads, 'Decisions, owners and next steps'].slice(0, maxItems);
  if (titles.at(-1) !== 'Decisions, owners and next steps') titles[titles.length - 1] = 'Decisions, owners and next steps';
  const plan = timed(titles, minutes);
  const people = prep.attendees.length ? `, with ${prep.attendees.slice(0, 6).join(', ')}${prep.attendees.length > 6 ? ' and others' : ''}` : '';
  return [
    `Here is a draft agenda for **${subject}**${byName(scope)} (${when(prep.start)}, ${minutes} minutes${people}).`,
    '',
    ...plan.map((item, i) => `${i + 1}. ${item.title} (${item.minutes} min)`),
    '',
    `I built it from the invite. ${outcomeQuestion} I can reshape the agenda around it, and when it is right you can save it to the invite or email it to everyone.`,
  ].join('\n');
}

const commitmentWords = /\b(?:will|agreed|commit(?:ted)?|promised|by (?:monday|tuesday|wednesday|thursday|friday|next week|end of)|deadline|action item|follow up|follow-up)\b/i;
const strongCommitment = /\b(?:I|we|they|he|she|you)(?:'ll| will| are going to| am going to)\b|\bby (?:monday|tuesday|wednesday|thursday|friday|next week|end of)\b/i;
const troubleWords = /\b(?:ran over|late|overran|went off|derailed|tense|conflict|confus|unclear|didn't|did not|no decision|stuck|too long)\b/i;

export function reflectionReply(meeting: MeetingPrep, message: string, scope: CoachScope): string {
  const prep = prepOf(meeting);
  const subject = clause(prep.subject) || 'the meeting';
  const sentences = message.split(/(?<=[.!?])\s+|\n+/).map((s) => clause(s)).filter(Boolean);
  const good = sentences.find((s) => !troubleWords.test(s)) ?? null;
  const trouble = sentences.find((s) => troubleWords.test(s)) ?? null;
  // A promise of someone's ("I will", "by Friday") before a mere agreement ("we agreed").
  const commitment = sentences.find((s) => strongCommitment.test(s)) ?? sentences.find((s) => s !== good && commitmentWords.test(s)) ?? null;
  return [
    `Thanks for looking back on **${subject}**${byName(scope)}.`,
    '',
    `- **What went well:** ${good ? `“${good}”. Name what made that work, so you can do it on purpose next time.` : 'pick one moment that worked, however small, and what made it work.'}`,
    `- **What to change:** ${trouble ? `“${trouble}”. One change for next time could be a tighter agenda with time boxes, or agreeing the decision you need at the start.` : 'if you ran it again tomorrow, what one thing would you do differently?'}`,
    `- **Commitments:** ${commitment ? `you mentioned “${commitment}”. Shall we turn that into a check-in on one of your goals, or a new SMART goal with a date?` : 'did you or anyone commit to something? If so, we can turn it into a check-in on one of your goals or a new SMART goal.'}`,
    '',
    actFirstQuestion,
  ].join('\n');
}

/** "Monday 30 November, 10:00 to 11:00" from the ISO times, read as written (no clock or locale). */
function span(start: string, end: string): string {
  const from = when(start);
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  const endTime = /T(\d{2}:\d{2})/.exec(end)?.[1];
  return sameDay && endTime && from !== start ? `${from} to ${endTime}` : `${from} to ${when(end)}`;
}

const weekLine = (m: WeekMeeting) =>
  `${span(m.start, m.end)}: ${oneLine(m.subject) || '(no subject)'}${m.attendees.length ? ` (with ${m.attendees.map((a) => oneLine(a, 80)).join(', ')})` : ''}`;

/** The question under the week's list; an answer to it names the meeting to prepare. */
export const weekQuestion = 'Which of these would you like to prepare?';

export function weekReply(facts: WeekFacts, scope: CoachScope): string {
  if (facts.kind === 'unavailable') {
    return `I cannot read your calendar right now${byName(scope)}. Try reconnecting Microsoft Calendar on the Integrations page (/integrations).`;
  }
  const week = facts.meetings;
  if (!week.length) return `Your calendar shows no meetings in the coming days${byName(scope)}. A good moment to block time for your most important goal.`;
  // Never the word "agenda" here: the chat page would put its agenda buttons under a list of meetings.
  return [
    `Here is what is on your calendar${byName(scope)}:`,
    '',
    ...week.slice(0, 15).map((m) => `- ${weekLine(m)}`),
    '',
    `${weekQuestion} On the Meetings page (/meetings), Prepare drafts a running order for any of them.`,
  ].join('\n');
}

/** The answer to the week's question: the meeting it names, and where to prepare it. */
export function weekAnswerReply(facts: WeekFacts | null, message: string, scope: CoachScope, listed = ''): string {
  // The meetings as given this turn, else as the list in the coach's last reply showed them.
  const meetings = facts?.kind === 'meetings' ? facts.meetings.map((m) => ({ subject: oneLine(m.subject), when: when(m.start) })) : listedMeetings(listed);
  const said = message.toLowerCase();
  const named = meetings.find((m) => m.subject && said.includes(m.subject.toLowerCase())) ??
    meetings.find((m) => m.subject.toLowerCase().split(/\s+/).some((w) => w.length > 3 && said.includes(w)));
  const which = named ? `**${named.subject}** (${named.when})` : `“${clause(message)}”`;
  return [
    `${which} it is${byName(scope)}.`,
    '',
    'Open it on the Meetings page (/meetings) and choose Prepare: the prep chat drafts a running order from the invite, and you can shape it there.',
    'Before you do: what is the one thing that meeting must settle?',
  ].join('\n');
}

/** "- Monday 30 November, 10:00 to 11:00: Design review (with …)" lines back to subject and time. */
function listedMeetings(reply: string): Array<{ subject: string; when: string }> {
  return [...reply.matchAll(/^- (\S[^:\n]{0,80}:\d\d)(?: to [^:\n]{0,80}?(?::\d\d)?)?: ([^\n]{1,200})$/gm)].map((m) => ({
    when: m[1]!,
    subject: m[2]!.replace(/ \(with [^()]*\)$/, '').trim(),
  }));
}

/** The question under the prep chat's first draft: the outcome the meeting exists for. */
export const outcomeQuestion = 'What is the one outcome you most need from this meeting?';

/**
 * The answer to the outcome question: the outcome said back, and the draft reshaped around it
 * (the outcome opens the meeting and closes it as the decision to take).
 */
export function outcomeReply(meeting: MeetingPrep | null, message: string, scope: CoachScope): string {
  const outcome = clause(message);
  const reflected = `So the meeting has to ${outcomeVerb(outcome)}.`;
  if (!meeting) {
    return `${reflected} What needs to be on the table before that can happen?`;
  }
  const prep = prepOf(meeting);
  const subject = clause(prep.subject) || 'your meeting';
  const minutes = minutesBetween(prep.start, prep.end);
  const topics = topicsIn(prep.body);
  const middle = topics.length ? topics : [`Where things stand on ${subject}`, 'Options and open questions'];
  const titles = [`The outcome we need: ${outcome}`, ...middle.slice(0, 4), `Decide: ${outcome}; owners and next steps`];
  const plan = timed(titles, minutes);
  return [
    `${reflected} Here is the agenda for **${subject}** reshaped around it${byName(scope)} (${minutes} minutes):`,
    '',
    ...plan.map((item, i) => `${i + 1}. ${item.title} (${item.minutes} min)`),
    '',
    'The outcome opens the meeting, so everyone knows what it is for, and closes it as the decision to take. When it is right, save it to the invite or email it to everyone.',
  ].join('\n');
}

/** "We need to decide whether X" → "decide whether X"; anything else as it is, after "deliver". */
function outcomeVerb(outcome: string): string {
  const stripped = outcome.replace(/^(?:we|i|they|the team)\s+(?:need|needs|have|has|want|wants|must|should)\s+(?:to\s+)?/i, '');
  if (stripped !== outcome) return lowerCommonFirst(stripped);
  return /^(?:decide|agree|choose|pick|settle|align|get|make|find|approve|sign|plan|review|set|confirm)\b/i.test(outcome)
    ? lowerCommonFirst(outcome)
    : `deliver “${outcome}”`;
}

/** The question that ends the reflection after a meeting. */
export const actFirstQuestion = 'Which of these do you want to act on first?';
