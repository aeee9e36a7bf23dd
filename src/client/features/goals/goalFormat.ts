import type { GoalStatus } from '../../../shared/schemas/goals';
import { goalTexts } from '../../../shared/texts';

// How goals read on screen: dates, numbers and the status's words and colour.

// One formatter each, made once: toLocale*String builds a new one on every call, which a page
// of many goals with long histories would pay thousands of times.
const dueDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const stampFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A YYYY-MM-DD date as 'Mar 31, 2027' (the date as written, whatever the time zone). */
export function formatDueDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return dueDateFormat.format(date);
}

/** 'Nov 23' */
export function formatDay(time: number): string {
  return dayFormat.format(time);
}

/** 'Nov 23, 2026, 8:06 PM' */
export function formatStamp(time: number): string {
  return stampFormat.format(time);
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** A value with its unit: '40%', '3 weeks'. */
export function withUnit(value: number, unit: string): string {
  const number = formatNumber(value);
  if (!unit) return number;
  return unit.startsWith('%') ? `${number}${unit}` : `${number} ${unit}`;
}


export const statusLabels: Record<GoalStatus, string> = {
  not_started: goalTexts.status.notStarted,
  on_track: goalTexts.status.onTrack,
  at_risk: goalTexts.status.atRisk,
  behind: goalTexts.status.behind,
  done: goalTexts.status.done,
};

export const statusColors: Record<GoalStatus, string> = {
  not_started: 'gray',
  on_track: 'teal',
  at_risk: 'yellow',
  behind: 'red',
  done: 'blue',
};

/** Today in the browser's calendar, as YYYY-MM-DD, moved by `days`. */
export function localIsoDate(days = 0, now = new Date()): string {
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
