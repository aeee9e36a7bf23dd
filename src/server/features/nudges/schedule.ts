import { weekDays, type WeekDay } from '../../../shared/schemas/nudges.js';
import { knownTimeZone, wallClock, zonedTime } from '../meetings/index.js';

// When nudges run, in the user's own time zone: wall times are turned into instants per date, so
// a Monday 08:30 review stays at 08:30 on both sides of a daylight-saving change. Pure, with the
// clock passed in.

export type LocalParts = { date: string; weekday: WeekDay; minutes: number };

const pad = (n: number) => String(n).padStart(2, '0');

/** The user's local date, weekday and minutes after midnight at `at`. */
export function localParts(at: Date, timeZone: string): LocalParts {
  const parts = wallClock(at, timeZone);
  const weekday = parts.weekday.toLowerCase().slice(0, 3) as WeekDay;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The instant of a wall time on a local date (a time skipped by a DST change moves forward). */
export function wallTime(date: string, time: string, timeZone: string): Date {
  return zonedTime(`${date}T${time}:00`, knownTimeZone(timeZone)).at;
}

/** The first `day` at `time` (local) strictly after `now`. */
export function nextWeeklyRun(now: Date, timeZone: string, day: WeekDay, time: string): Date {
  const today = localParts(now, timeZone);
  const ahead = (weekDays.indexOf(day) - weekDays.indexOf(today.weekday) + 7) % 7;
  for (const extra of [0, 7, 14]) {
    const at = wallTime(addDays(today.date, ahead + extra), time, timeZone);
    if (at.getTime() > now.getTime()) return at;
  }
  throw new Error('no weekly run found');
}

/** Whether `at` falls in the quiet hours (a window over midnight, such as 20:00 to 07:00, too). */
export function inQuietHours(at: Date, timeZone: string, quiet: { start: string; end: string }): boolean {
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  if (start === end) return false;
  const { minutes } = localParts(at, timeZone);
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/** The end of the quiet hours that `at` falls in. */
export function quietHoursEnd(at: Date, timeZone: string, quiet: { start: string; end: string }): Date {
  const local = localParts(at, timeZone);
  const today = wallTime(local.date, quiet.end, timeZone);
  return today.getTime() > at.getTime() ? today : wallTime(addDays(local.date, 1), quiet.end, timeZone);
}

/** '2026-03-30 08:30 (Europe/Paris)': how the settings section and reasons show a time. */
export function formatLocal(at: Date, timeZone: string): string {
  const local = localParts(at, timeZone);
  return `${local.date} ${pad(Math.floor(local.minutes / 60))}:${pad(local.minutes % 60)} (${knownTimeZone(timeZone)})`;
}
