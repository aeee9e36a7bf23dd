import { describe, expect, it } from 'vitest';
import { firstChunkEnd, sentenceEnd } from './streamedSpeech';

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

describe("where the first spoken chunk of a reply ends (the first sound sooner)", () => {
  it('ends at the first clause after two words, or after the first three words', () => {
    expect(firstChunkEnd('Good question, let us start')).toBe('Good question, '.length);
    expect(firstChunkEnd('Start by naming the outcome you want. Then')).toBe('Start by naming '.length);
    expect(firstChunkEnd('Yes. Then')).toBe('Yes. '.length);
  });

  it('does not end on a joining word, and waits for a word still being written', () => {
    expect(firstChunkEnd('Name the outcome you want')).toBe('Name the outcome '.length);
    expect(firstChunkEnd('First, name')).toBe(-1);
    expect(firstChunkEnd('Start by nam')).toBe(-1);
    expect(firstChunkEnd('Start by naming')).toBe(-1);
    expect(firstChunkEnd('')).toBe(-1);
  });

  it('stays linear on a long reply without spaces', () => {
    const started = performance.now();
    expect(firstChunkEnd('a'.repeat(200_000))).toBe(-1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
