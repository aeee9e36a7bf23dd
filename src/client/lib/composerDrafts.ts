// What was typed into a conversation's input and not sent yet, per conversation ('new' for a new
// conversation), kept while the tab lives: opening another chat (or a chat opening while one
// types) and coming back finds the text where it was left. In memory only, never stored, and
// forgotten when the session changes (localCopies.ts), so the next person on this browser
// never sees it.

const maxDrafts = 50;
const drafts = new Map<string, string>();

export type DraftKey = number | 'new';

export function draftOf(key: DraftKey): string {
  return drafts.get(String(key)) ?? '';
}

export function keepDraft(key: DraftKey, text: string) {
  const name = String(key);
  drafts.delete(name);
  if (!text) return;
  drafts.set(name, text);
  // The oldest drafts go first once there are many (a Map keeps insertion order).
  while (drafts.size > maxDrafts) drafts.delete(drafts.keys().next().value!);
}

export function forgetDrafts() {
  drafts.clear();
}
