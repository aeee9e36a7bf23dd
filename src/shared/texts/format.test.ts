import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupThousands } from './format.js';

describe('groupThousands', () => {
  it('writes the limits as the texts show them', () => {
    expect(groupThousands(0)).toBe('0');
    expect(groupThousands(999)).toBe('999');
    expect(groupThousands(1000)).toBe('1,000');
    expect(groupThousands(4000)).toBe('4,000');
    expect(groupThousands(1234567)).toBe('1,234,567');
    expect(groupThousands(-12345)).toBe('-12,345');
  });

  it('matches toLocaleString("en-US") for every safe integer and for fractions', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => groupThousands(n) === n.toLocaleString('en-US')));
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), (n) => groupThousands(n) === n.toLocaleString('en-US')));
  });
});
