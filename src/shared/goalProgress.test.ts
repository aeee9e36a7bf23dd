import { describe, expect, it } from 'vitest';
import { goalProgress, keyResultPercent, keyResultProgress, percentOf } from './goalProgress.js';

// The one progress computation the server's goal view and the client's line, chart and table share.
describe('goal progress', () => {
  it('measures a key result from its start to its target, in either direction, clamped', () => {
    expect(keyResultProgress({ start: 1, target: 5 }, 3)).toBe(0.5);
    expect(keyResultProgress({ start: 10, target: 2 }, 6)).toBe(0.5);
    expect(keyResultProgress({ start: 1, target: 5 }, 9)).toBe(1);
    expect(keyResultProgress({ start: 1, target: 5 }, -3)).toBe(0);
    expect(keyResultProgress({ start: 3, target: 3 }, 3)).toBe(1);
    expect(keyResultProgress({ start: 3, target: 3 }, 2)).toBe(0);
  });

  it('reads a falling key result as the demo’s change failure rate: 18% to 8%, at 11% is 70%', () => {
    expect(keyResultPercent({ start: 18, target: 8 }, 11)).toBe(70);
    expect(keyResultPercent({ start: 18, target: 8 }, 13)).toBe(50);
    expect(keyResultPercent({ start: 18, target: 8 }, 18)).toBe(0);
  });

  it('averages the key results into the goal, and a done goal is 100%', () => {
    expect(goalProgress([0.5, 1], false)).toBe(0.75);
    expect(goalProgress([], false)).toBe(0);
    expect(goalProgress([0.1], true)).toBe(1);
    expect(percentOf(0.666)).toBe(67);
    expect(percentOf(1.4)).toBe(100);
    expect(percentOf(-0.2)).toBe(0);
  });
});
