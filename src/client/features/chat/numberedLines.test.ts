import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CoachMarkdown } from './CoachMarkdown';
import { PlainText } from './CoachText';

// The product spec's screens: a reply's lines starting with 1. to 7. are indented, in the first render, the
// streamed render and the plain text drawn before the Markdown renderer loads.
// Here: which lines are marked (an ordered list item, or data-numbered-line); the e2e test
// (test/e2e/numbered-lines-errors-toasts.spec.ts) measures their x in Chromium.

const agenda = 'Here is your agenda:\n\n1. Welcome and objectives (5 min)\n2. Wins from last week (10 min)\n3. Next steps (5 min)';
const inProse = 'We start with the wins.\n3. Then the blockers\nand we close on time.';
const bold = '**1. Welcome and objectives**\n\n**2. Decisions**';

const markdown = (text: string, streaming = false) => renderToStaticMarkup(createElement(CoachMarkdown, { text, streaming }));
const plain = (text: string) => renderToStaticMarkup(createElement(PlainText, { text }));
const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

describe('numbered lines', () => {
  it('first render: a numbered list, numbered lines kept in prose, and bold numbered lines', () => {
    const list = markdown(agenda);
    expect(list).toContain('<ol>');
    expect(count(list, /<li>/g)).toBe(3);
    const prose = markdown(inProse);
    expect(count(prose, /data-numbered-line="true"/g)).toBe(1);
    // The line is a span of its own marked as numbered (read with indexOf: a pattern with two
    // [^>]* around the attribute is polynomial, and the ReDoS test reads test files too).
    const line = prose.indexOf('>3. Then the blockers</span>');
    expect(line).toBeGreaterThan(0);
    expect(prose.slice(prose.lastIndexOf('<span', line), line)).toContain('data-numbered-line="true"');
    expect(count(markdown(bold), /<p[^<>]*data-numbered-line="true"/g)).toBe(2);
  });

  it('streamed render: the same, while the reply is being written', () => {
    const partial = `${agenda.slice(0, agenda.indexOf('3.') + 6)}`;
    const streamed = markdown(partial, true);
    expect(count(streamed, /<li>/g)).toBe(3);
    expect(count(markdown(`${inProse.slice(0, 40)}`, true), /data-numbered-line="true"/g)).toBe(1);
    expect(count(markdown(bold, true), /data-numbered-line="true"/g)).toBe(2);
  });

  it('the plain fallback: each numbered line marked, other lines not', () => {
    const list = plain(agenda);
    expect(count(list, /data-numbered-line="true"/g)).toBe(3);
    expect(list).toMatch(/<p[^<>]*>Here is your agenda:<\/p>/);
    expect(count(plain(inProse), /data-numbered-line="true"/g)).toBe(1);
    expect(count(plain('1. Only one line'), /<p[^<>]*data-numbered-line="true"/g)).toBe(1);
  });

  it('leaves 8. and numbers inside a line alone', () => {
    expect(markdown('Some prose\n8. not this one')).not.toContain('data-numbered-line');
    expect(plain('Meet at 1. no, 2.')).not.toContain('data-numbered-line');
    expect(plain('10. ten')).not.toContain('data-numbered-line');
  });
});
