import { isTimeZone } from '../../../shared/schemas/meetings';

// The API answers meeting times as ISO 8601 wall times with their offset, in the user's calendar
// time zone: the page shows the wall time as written, whatever the browser's own zone.

export function wallDate(iso: string): string {
  return iso.slice(0, 10);
}

export function wallTime(iso: string): string {
  return iso.slice(11, 16);
}

/** The browser's own time zone (dates a demo visitor's sample week until they choose one). */
export function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isTimeZone(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
}

/** The wall date of "now" in a time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string, offsetDays = 0): string {
  const at = new Date(Date.now() + offsetDays * 86_400_000);
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

export function dayHeading(date: string, timeZone: string, texts: { today: string; tomorrow: string }): string {
  if (date === todayIn(timeZone)) return texts.today;
  if (date === todayIn(timeZone, 1)) return texts.tomorrow;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
}

export function timeZoneOptions(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...zones])];
}
