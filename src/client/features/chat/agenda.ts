import { chatTexts } from '../../../shared/texts';

// The agenda buttons under a reply that mentions an agenda (SPEC section 2), with behaviour that
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
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The meeting's name: the first bold phrase of the reply, if it has one. */
export function agendaTitle(markdown: string): string {
  const bold = /\*\*(.+?)\*\*/.exec(markdown)?.[1]?.trim();
  return bold && bold.length <= 120 ? bold : chatTexts.agendaEventTitle;
}

/** The meeting's length in minutes, when the reply states it ("(45 minutes"), else an hour. */
export function agendaMinutes(markdown: string): number {
  const match = /(\d{1,3})\s*-?\s*(?:minutes?|mins?)\b/i.exec(markdown) ?? /(\d)\s*hours?\b/i.exec(markdown);
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

function pad(value: number) {
  return String(value).padStart(2, '0');
}

// Floating local time (no zone): the event lands at 10:00 wherever the calendar is.
function localStamp(date: Date) {
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}T${pad(date.getHours())}${pad(date.getMinutes())}00`;
}

function utcStamp(date: Date) {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

// RFC 5545 3.3.11: backslash, semicolon, comma and newline are escaped in text values.
function escapeText(text: string) {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
}

// RFC 5545 3.1: lines longer than 75 octets are folded; neither a multi-byte character nor an
// escape such as a backslash-comma is split.
function foldLine(line: string) {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line.match(/\\.|[\s\S]/gu) ?? []) {
    const size = encoder.encode(char).length;
    const limit = parts.length ? 74 : 75;
    if (bytes + size > limit) {
      parts.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function agendaCalendarFile(markdown: string, now = new Date()): string {
  const start = nextWorkingMorning(now);
  const end = new Date(start.getTime() + agendaMinutes(markdown) * 60_000);
  const uid = `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}@ai-coach`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//AI Coach//Chat agenda//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${localStamp(start)}`,
    `DTEND:${localStamp(end)}`,
    `SUMMARY:${escapeText(agendaTitle(markdown))}`,
    `DESCRIPTION:${escapeText(agendaPlainText(markdown))}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

// Mail programs accept a couple of thousand characters in a mailto: link; an agenda fits.
const mailtoBodyMax = 1800;

export function agendaMailtoLink(markdown: string): string {
  let body = agendaPlainText(markdown);
  if (body.length > mailtoBodyMax) body = `${body.slice(0, mailtoBodyMax - 1)}…`;
  const subject = agendaTitle(markdown) === chatTexts.agendaEventTitle ? chatTexts.agendaEmailSubject : `${chatTexts.agendaEmailSubject}: ${agendaTitle(markdown)}`;
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body.replace(/\n/g, '\r\n'))}`;
}
