// Graph writes event times as a wall time in the zone asked (Prefer: outlook.timezone) without an
// offset; the API answers ISO 8601 with the offset of that zone at that moment.

function offsetMinutes(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
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
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  let offset = offsetMinutes(guess, zone);
  offset = offsetMinutes(guess - offset * 60_000, zone);
  const at = new Date(guess - offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { iso: `${match[0]}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`, at };
}
