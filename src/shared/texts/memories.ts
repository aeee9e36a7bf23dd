import { memoryMemoryUpdated, memorySearchButton, memorySearchShortcut, memorySidebarItem, memoryUndo, memoryUndone } from './appShell.js';
// Memory: the /memory page, the 'Memory updated' note, the search dialog, errors.
export const memoryTexts = {
  sidebarItem: memorySidebarItem,
  memoryUpdated: memoryMemoryUpdated,
  undo: memoryUndo,
  undone: memoryUndone,
  searchShortcut: memorySearchShortcut,
  searchButton: memorySearchButton,
  pageTitle: 'Memory',
  pageSubtitle:
    'What your coach remembers about you across chats: facts, preferences, people and commitments. Edit or delete anything; the coach never sees a deleted memory again.',
  settingsLink: 'Manage what your coach remembers',
  settingsHeading: 'Memory',
  settingsDescription: 'Your coach remembers facts, preferences, people and commitments you mention, to coach you better.',
  switchLabel: 'Remember things across chats',
  switchOnDescription: 'On: the coach remembers what you ask it to, picks up durable facts after each reply, and uses them.',
  switchOffDescription: 'Off: nothing new is remembered and no memory is used in replies. Your memories stay here until you delete them.',
  emptyTitle: 'Nothing remembered yet',
  emptyBody: 'Say "Remember that …" in a chat, or add a memory here.',
  addMemory: 'Add memory',
  newMemoryLabel: 'Something to remember',
  kindLabel: 'Kind',
  dueAtLabel: 'Due (commitments)',
  kinds: { fact: 'Facts', preference: 'Preferences', person: 'People', commitment: 'Commitments' } as const,
  kindSingular: { fact: 'Fact', preference: 'Preference', person: 'Person', commitment: 'Commitment' } as const,
  edit: 'Edit',
  editMemory: 'Edit memory',
  save: 'Save',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteMemory: (text: string) => `Delete memory: ${text}`,
  editMemoryNamed: (text: string) => `Edit memory: ${text}`,
  due: (date: string) => `Due ${date}`,
  done: 'Done',
  forgetEverything: 'Forget everything',
  forgetTitle: 'Forget everything?',
  forgetBody: 'This deletes every memory. The coach will not see any of them again. This cannot be undone.',
  forgetConfirm: 'Forget everything',
  forgotten: 'Everything forgotten',
  saved: 'Memory saved',
  deleted: 'Memory deleted',
  restored: 'Memory restored',
  restoreExpired: 'This memory can no longer be restored: undo works for 10 minutes after a delete.',
  alreadyRestored: 'This memory is already back.',
  loadFailed: 'Your memories could not be loaded.',
  retry: 'Try again',
  // Errors (REST and tRPC).
  notFound: 'Memory not found',
  textRequired: 'Write what to remember',
  textTooLong: 'A memory can be at most 500 characters',
  unknownKind: 'Kind must be fact, preference, person or commitment',
  dueAtInvalid: 'Due date must be a date and time (ISO 8601)',
  doneInvalid: 'done must be true or false',
  enabledInvalid: 'enabled must be true or false',
  tooMany: (max: number) => `You can keep at most ${max} memories. Delete some on the Memory page first.`,
  // Search across chats.
  searchTitle: 'Search chats',
  searchPlaceholder: 'Search every chat…',
  searchHint: 'Type at least 2 characters',
  searchEmpty: 'No messages match',
  searchFailed: 'Search failed. Please try again.',
  searchTooShort: 'Search for at least 2 characters',
  searchTooLong: 'Search for at most 200 characters',
  you: 'You',
  coach: 'Coach',
} as const;

/** The coach's question about a commitment past its due date (asked once, in the next chat). */
export function commitmentQuestion(plan: string, createdAt: Date, now: Date): string {
  const days = (now.getTime() - createdAt.getTime()) / 86_400_000;
  const when = days < 7 ? 'Earlier this week' : days < 14 ? 'Last week' : 'A while ago';
  return `${when} you planned to ${plan} — how did it go?`;
}
