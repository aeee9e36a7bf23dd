import { describe, expect, it } from 'vitest';
import { plainMarkdown, snippetParts } from './snippet';

// Search snippets read as plain text, the matched words still marked.
describe('search snippets', () => {
  it('takes the markdown out and keeps the marks', () => {
    expect(snippetParts('**<mark>Options</mark>:** 1. Ask for &lt;more&gt; time')).toEqual([
      { text: 'Options', marked: true },
      { text: ': 1. Ask for <more> time', marked: false },
    ]);
    expect(snippetParts('## Your <mark>agenda</mark>\n- *Open* the [<mark>budget</mark> review](/app?chat=3) … `code` ~~old~~')).toEqual([
      { text: 'Your ', marked: false },
      { text: 'agenda', marked: true },
      { text: ' Open the ', marked: false },
      { text: 'budget', marked: true },
      { text: ' review … code old', marked: false },
    ]);
  });

  it('leaves words with underscores and stars in them, and an unclosed mark, as they are', () => {
    expect(plainMarkdown('snake_case_name and 5*3 and __init__')).toBe('snake_case_name and 5*3 and init');
    expect(snippetParts('a <mark>b')).toEqual([{ text: 'a <mark>b', marked: false }]);
    expect(snippetParts('> quoted **<mark>word</mark>**')).toEqual([
      { text: 'quoted ', marked: false },
      { text: 'word', marked: true },
    ]);
  });

  it('stays linear on long hostile input', () => {
    const hostile = `${'*_['.repeat(20_000)}${'<mark>'.repeat(5_000)}`;
    const started = performance.now();
    snippetParts(hostile);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
