import { chatTexts, meetingsTexts } from '../../../shared/texts';

// The agenda buttons under a reply that mentions an agenda (the product spec's screens), with behaviour that
// needs no integration: an .ics calendar file, a mailto: draft, and a prefilled request to change it.

export function mentionsAgenda(text: string): boolean {
  return /agenda/i.test(text);
}

/** The reply as plain text: Markdown emphasis, headings and code marks removed, lists kept. */
export function agendaPlainText(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_]([^*_\n]+)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\[([^\][]+)\]\(([^()]+)\)/g, '$1 ($2)')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const numberedLine = /^\s*\d{1,2}[.)]\s+\S/;

/**
 * The agenda itself, as it goes into an invite, a calendar file or an email: the meeting's name
 * and length, then the numbered items. The coach's words around it ("Here is your meeting
 * agenda, Alex", the advice below) stay in the chat. A reply without numbered items is the
 * agenda as it is written.
 */
export function agendaText(markdown: string): string {
  const lines = agendaPlainText(markdown).split('\n');
  const items = lines.filter((line) => numberedLine.test(line)).map((line) => line.trim());
  if (items.length < 2) return agendaPlainText(markdown);
  const title = agendaTitle(markdown);
  const heading = title === chatTexts.agendaEventTitle ? chatTexts.agendaEmailSubject : title;
  return [`${heading} (${agendaMinutes(markdown)} minutes)`, '', ...items].join('\n');
}

/** The meeting's name: the first bold phrase of the reply, if it has one. */
export function agendaTitle(markdown: string): string {
  const bold = /\*\*(.+?)\*\*/.exec(markdown)?.[1]?.trim();
  return bold && bold.length <= 120 ? bold : chatTexts.agendaEventTitle;
}

/** The meeting's length in minutes, when the reply states it ("(45 minutes"), else an hour. */
export function agendaMinutes(markdown: string): number {
  const match = /(\d{1,3})[ \t]{0,3}-?[ \t]{0,3}(?:minutes?|mins?)\b/i.exec(markdown) ?? /(\d)\s*hours?\b/i.exec(markdown);
  if (!match) return 60;
  const value = Number(match[1]);
  const minutes = /hour/i.test(match[0]) ? value * 60 : value;
  return minutes >= 5 && minutes <= 480 ? minutes : 60;
}

/** The next working day at 10:00 local time: a starting point the person moves in the calendar. */
export function nextWorkingMorning(now: Date): Date {
  const start = new Date(now);
  start.setHours(10, 0, 0, 0);
  do start.setDate(start.getDate() + 1);
  while (start.getDay() === 0 || start.getDay() === 6);
  return start;
}

/**
 * The agenda as an iCalendar file (RFC 5545), written by the `ics` library: it escapes and folds
 * the text as the standard asks. The event is in floating local time, so it lands at 10:00
 * wherever the calendar is. Loaded on demand: only a click on the save button needs it.
 */
export async function agendaCalendarFile(markdown: string, now = new Date()): Promise<string> {
  const { createEvent } = await import('ics');
  const start = nextWorkingMorning(now);
  const { error, value } = createEvent({
    productId: '-//AI Coach//Chat agenda//EN',
    method: 'PUBLISH',
    uid: `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}@ai-coach`,
    start: [start.getFullYear(), start.getMonth() + 1, start.getDate(), start.getHours(), start.getMinutes()],
    startInputType: 'local',
    startOutputType: 'local',
    duration: { minutes: agendaMinutes(markdown) },
    title: agendaTitle(markdown),
    description: agendaText(markdown),
  });
  if (error || !value) throw error ?? new Error('The calendar file could not be written');
  return value;
}

// Mail programs accept a couple of thousand characters in a mailto: link; an agenda fits.
const mailtoBodyMax = 1800;

/**
 * A mail draft of the agenda: addressed to the meeting's participants when a meeting is given
 * (its subject then names the email), else to no one yet.
 */
export function agendaMailtoLink(markdown: string, meeting?: { subject: string; recipients: string[] }): string {
  let body = agendaText(markdown);
  if (body.length > mailtoBodyMax) body = `${body.slice(0, mailtoBodyMax - 1)}…`;
  const title = agendaTitle(markdown);
  // The meeting's subject names the email as it does when the agenda is emailed from a prep chat.
  const subject = meeting
    ? meetingsTexts.agendaSubject(meeting.subject)
    : title === chatTexts.agendaEventTitle
      ? chatTexts.agendaEmailSubject
      : `${chatTexts.agendaEmailSubject}: ${title}`;
  // Addresses keep their @ (RFC 6068 allows it unencoded); anything else in them is encoded.
  const to = (meeting?.recipients ?? []).map((address) => encodeURIComponent(address).replace(/%40/g, '@')).join(',');
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body.replace(/\n/g, '\r\n'))}`;
}

/** The day and time a calendar file's event starts, as the picker says it ("Thursday 3 December, 10:00"). */
export function calendarFileStart(now = new Date()): string {
  const start = nextWorkingMorning(now);
  return `${start.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' })}, 10:00`;
}
