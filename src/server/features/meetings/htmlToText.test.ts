import { describe, expect, it } from 'vitest';
import { bodyWithAgenda } from './agenda.js';
import { htmlToText } from './prepMeeting.js';

describe('an invite body as plain text', () => {
  it('breaks lines where blocks end, lists items, drops tags, scripts and styles, decodes entities', () => {
    const html = '<html><head><style>p{color:red}</style></head><body><p>Hi&nbsp;all,</p><ul><li>Budget &amp; plan</li><li>Q&lt;4&gt;</li></ul>Line<br/>two <script>alert(1)</script>end   \n</body></html>';
    expect(htmlToText(html)).toBe('Hi all,\n- Budget & plan\n- Q<4>\nLine\ntwo end\n');
  });

  it('keeps the text before an unclosed tag and stays linear on a body of unclosed tags', () => {
    expect(htmlToText('Agenda <b>first</b> then <unclosed')).toBe('Agenda first then');
    const hostile = '<'.repeat(200_000);
    const started = performance.now();
    expect(htmlToText(hostile)).toBe('');
    // A quadratic scan of 200,000 characters takes seconds; a linear one a few milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('the agenda section of an invite', () => {
  it('is replaced, not added again, when saved twice, and keeps the invite below it', () => {
    const once = bodyWithAgenda('<html><body><p>Invite text</p></body></html>', '1. Welcome');
    const twice = bodyWithAgenda(once, '1. Welcome\n2. Plan');
    expect(twice.split('ai-coach-agenda:start').length - 1).toBe(1);
    expect(twice).toContain('2. Plan');
    expect(twice).toContain('<p>Invite text</p>');
  });

  it("is found by its element when Exchange dropped the markers (and prefixed the id), and nothing else is taken", () => {
    const exchanged = `<html><body><div class="x_a" id="x_ai-coach-agenda" dir="ltr"><p><strong>Agenda</strong></p><p>1. Old</p></div><hr><div id="other"><p>Invite text</p></div></body></html>`;
    const saved = bodyWithAgenda(exchanged, '1. New');
    expect(saved).not.toContain('1. Old');
    expect(saved).toContain('1. New');
    expect(saved).toContain('<div id="other"><p>Invite text</p></div>');
    // The id as text, or in an element that is not a div, is the invite's own and stays.
    const mentioned = '<body><p>id="ai-coach-agenda" is our marker</p><span id="ai-coach-agenda">kept</span></body>';
    expect(bodyWithAgenda(mentioned, '1. New')).toContain('<p>id="ai-coach-agenda" is our marker</p><span id="ai-coach-agenda">kept</span>');
  });

  it('stays linear on a hostile invite body', () => {
    const hostile = `<div ${'id="ai-coach-agenda" '.repeat(20_000)}${'</p><p>'.repeat(20_000)}`;
    const started = performance.now();
    bodyWithAgenda(hostile, '1. Welcome');
    bodyWithAgenda(`${'<div id="x_ai-coach-agenda">'.repeat(20_000)}`, '1. Welcome');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
