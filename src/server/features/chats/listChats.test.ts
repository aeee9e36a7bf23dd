import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoOf } from './listChats.js';

// The list's timestamps: PostgreSQL's text form turned into what Date#toISOString answers (the
// ORM's own parser is the reference).
const platform = new PostgreSqlPlatform();
const parseDate = (text: string) => platform.parseDate(text) as Date;

function pgText(date: Date, micros: string, zone: string) {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${micros ? `.${micros}` : ''}${zone}`;
}

describe('isoOf', () => {
  it('answers what Date#toISOString answers for any UTC timestamp text, whatever its fraction', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.stringMatching(/^(\d{1,6})?$/),
        (date, micros) => {
          const text = pgText(date, micros, '+00');
          expect(isoOf(text, platform)).toBe(parseDate(text).toISOString());
        },
      ),
    );
  });

  it('reads other zones and Date values through the parser', () => {
    expect(isoOf('2026-11-23 23:10:00.5+01', platform)).toBe('2026-11-23T22:10:00.500Z');
    expect(isoOf('2026-11-23 17:10:00-05', platform)).toBe('2026-11-23T22:10:00.000Z');
    expect(isoOf(new Date('2026-11-23T22:10:00.123Z'), platform)).toBe('2026-11-23T22:10:00.123Z');
  });
});
