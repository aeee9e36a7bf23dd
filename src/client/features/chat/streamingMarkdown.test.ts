import { describe, expect, it } from 'vitest';
import { closeOpenMarkdown, splitStreamingText } from './streamingMarkdown';

describe('splitStreamingText', () => {
  it('keeps finished paragraphs apart from the one being written', () => {
    const text = 'First paragraph.\n\nSecond one.\n\nThe third is still be';
    expect(splitStreamingText(text)).toEqual({ settled: 'First paragraph.\n\nSecond one.\n\n', tail: 'The third is still be' });
  });

  it('settles nothing while the first block is being written', () => {
    expect(splitStreamingText('Just one line so far')).toEqual({ settled: '', tail: 'Just one line so far' });
    expect(splitStreamingText('A paragraph\n\n')).toEqual({ settled: '', tail: 'A paragraph\n\n' });
  });

  it('never cuts inside a code fence, even at its blank lines', () => {
    const text = 'Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n';
    expect(splitStreamingText(text)).toEqual({ settled: 'Intro.\n\n', tail: '```ts\nconst a = 1;\n\nconst b = 2;\n' });
    const closed = `${text}\`\`\`\n\nAfter the code`;
    expect(splitStreamingText(closed).tail).toBe('After the code');
  });

  it('keeps an indented continuation with its list item', () => {
    const text = '1. Goal\n\n   more about the goal\n\n2. Reality';
    expect(splitStreamingText(text)).toEqual({ settled: '1. Goal\n\n   more about the goal\n\n', tail: '2. Reality' });
    expect(splitStreamingText('1. Goal\n\n   more about').tail).toBe('1. Goal\n\n   more about');
  });

  it('always gives back the whole text', () => {
    const samples = ['', '\n\n\n', 'a\n\nb\n\n```\nx\n\n', '> quote\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nend'];
    for (const text of samples) {
      const { settled, tail } = splitStreamingText(text);
      expect(settled + tail).toBe(text);
    }
  });
});

describe('closeOpenMarkdown', () => {
  it('closes an open code fence or bold run, and leaves balanced text alone', () => {
    expect(closeOpenMarkdown('```ts\nconst a')).toBe('```ts\nconst a\n```');
    expect(closeOpenMarkdown('This is **impor')).toBe('This is **impor**');
    expect(closeOpenMarkdown('All **done**.')).toBe('All **done**.');
  });
});
