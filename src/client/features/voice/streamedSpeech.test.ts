import { describe, expect, it } from 'vitest';
import { sentenceEnd } from './streamedSpeech';

describe('where the first sentence of a streamed reply ends', () => {
  it('ends after its punctuation, closing quotes and the space after them', () => {
    expect(sentenceEnd('Start small. Then grow')).toBe('Start small. '.length);
    expect(sentenceEnd('Really?! "Yes." Next')).toBe('Really?! '.length);
    expect(sentenceEnd('He said "go." Then')).toBe('He said "go." '.length);
    expect(sentenceEnd('Wait…  And')).toBe('Wait…  '.length);
  });

  it('waits while a sentence is not complete: no space after the stop yet, or a decimal point', () => {
    expect(sentenceEnd('Start small.')).toBe(-1);
    expect(sentenceEnd('It costs 3.5 million')).toBe(-1);
    expect(sentenceEnd('')).toBe(-1);
  });

  it('stays linear on a long run of punctuation', () => {
    const started = performance.now();
    expect(sentenceEnd('.'.repeat(200_000))).toBe(-1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
