import { beforeEach, describe, expect, it } from 'vitest';
import { draftOf, forgetDrafts, keepDraft } from './composerDrafts';

describe('unsent text per conversation', () => {
  beforeEach(() => forgetDrafts());

  it('keeps each conversation its own text, and forgets a cleared one', () => {
    keepDraft('new', 'For a new chat');
    keepDraft(7, 'For chat 7');
    expect(draftOf('new')).toBe('For a new chat');
    expect(draftOf(7)).toBe('For chat 7');
    expect(draftOf(8)).toBe('');
    keepDraft(7, '');
    expect(draftOf(7)).toBe('');
    expect(draftOf('new')).toBe('For a new chat');
  });

  it('keeps the 50 most recently typed into, and forgets everything when the session changes', () => {
    for (let chat = 1; chat <= 51; chat++) keepDraft(chat, `Draft ${chat}`);
    expect(draftOf(1)).toBe('');
    expect(draftOf(2)).toBe('Draft 2');
    keepDraft(2, 'Draft 2, edited');
    keepDraft(52, 'Draft 52');
    // Typing into chat 2 made it recent again: chat 3 went instead.
    expect(draftOf(2)).toBe('Draft 2, edited');
    expect(draftOf(3)).toBe('');
    forgetDrafts();
    expect(draftOf(2)).toBe('');
    expect(draftOf(52)).toBe('');
  });
});
