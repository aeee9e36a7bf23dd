// Graph writes event times as a wall time in the zone asked (Prefer: outlook.timezone) without an
// offset; the API answers ISO 8601 with the offset of that zone at that moment.

export type WallClock = { year: string; month: string; day: string; hour: string; minute: string; second: string; weekday: string };

const zoneFormats = new Map<string, { zone: string; format: Intl.DateTimeFormat }>();
// Zones are a few hundred names, but they are typed by users (a zone is matched in any case):
// the cache is emptied rather than grown without bound.
const zoneFormatLimit = 1_000;

/**
 * A time zone's formatter of the wall clock, made once per zone (making one costs about 70 µs,
 * using it a tenth of that: the nudge planner reads thousands of members' local times at once).
 * An unknown zone is UTC.
 */
function zoneFormat(timeZone: string): { zone: string; format: Intl.DateTimeFormat } {
  const known = zoneFormats.get(timeZone);
  if (known) return known;
  let made: { zone: string; format: Intl.DateTimeFormat };
  try {
    made = { zone: timeZone, format: new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short', hourCycle: 'h23' }) };
  } catch {
    made = zoneFormat('UTC');
  }
  if (zoneFormats.size >= zoneFormatLimit) zoneFormats.clear();
  zoneFormats.set(timeZone, made);
  return made;
}

/** `timeZone` when it is one Intl knows, else 'UTC'. */
export const knownTimeZone = (timeZone: string): string => zoneFormat(timeZone).zone;

/** The wall clock in `timeZone` at `at` (two-digit fields, the weekday as 'Mon'). */
export function wallClock(at: Date | number, timeZone: string): WallClock {
  const clock: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).format.formatToParts(at)) clock[part.type] = part.value;
  return clock as WallClock;
}

function offsetMinutes(at: number, timeZone: string): number {
  const parts = wallClock(at, timeZone);
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** '2026-11-26T10:00:00.0000000' in 'Europe/Paris' → { iso: '2026-11-26T10:00:00+01:00', at: Date }. */
export function zonedTime(wall: string, timeZone: string): { iso: string; at: Date } {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(wall);
  if (!match) {
    const at = new Date(wall);
    return { iso: Number.isNaN(at.getTime()) ? wall : at.toISOString(), at };
  }
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const zone = knownTimeZone(timeZone);
  let offset = offsetMinutes(guess, zone);
  offset = offsetMinutes(guess - offset * 60_000, zone);
  const at = new Date(guess - offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { iso: `${match[0]}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`, at };
}
