import { describe, expect, it } from 'vitest';
import { mentionsWritingStyle, stylePanelTriggered } from './writingStyleTriggers.js';

describe('the writing style panel triggers (SPEC section 2)', () => {
  it.each([
    ['What is my writing style?', true],
    ['Show me my WRITING STYLE', true],
    ['update my writing profile', true],
    ['Does my email style sound harsh?', true],
    ['Could you generate an email to the team', true],
    ['GENERATE a follow-up EMAIL', true],
    ['generate some emails', true],
    ['help me with emailing generated reports', true], // both words appear, as the spec says
    ['writing styles differ', true],
    ['write an email to Sam', false],
    ['generate a plan', false],
    ['my email is full', false],
    ['style of writing', false],
    ['writing  style', false],
    ['', false],
  ])('%j -> %s', (text, expected) => {
    expect(mentionsWritingStyle(text)).toBe(expected);
  });

  const user = (content: string) => ({ role: 'user', content });
  const assistant = (content: string) => ({ role: 'assistant', content });

  it.each([
    ['a trigger in the latest user message', [user('hello'), user('my writing style?')], true],
    ['a trigger three user messages back', [user('writing style'), assistant('x'), user('a'), assistant('y'), user('b')], true],
    ['a trigger four user messages back', [user('writing style'), user('a'), user('b'), user('c')], false],
    ['a trigger only in an assistant message', [assistant('your writing style'), user('ok')], false],
    ['assistant turns do not push a trigger out', [user('email style'), assistant('1'), assistant('2'), assistant('3'), user('a'), user('b')], true],
    ['no messages', [], false],
  ])('%s -> %s', (_name, messages, expected) => {
    expect(stylePanelTriggered(messages)).toBe(expected);
  });
});
