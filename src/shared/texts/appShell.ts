// The texts /app's first view draws (its sidebar, header and chat page) from areas whose other
// texts only their own pages and dialogs need. The first view fetched each of those
// areas' whole catalogue (about 28 KB before compression); it now fetches this file. Each area's
// object names the same strings (`voiceTexts.startVoiceCall` still works). Each string is a
// constant of its own, which the area's file refers to by name: a spread or a property read of
// these objects would make the area's module one with side effects, which every page would then
// fetch through the catalogue's index.
import { rehearsalBadge, rehearsalNavLabel } from './rehearsalChat.js';

export const voiceStartVoiceCall = 'Start a voice call';
// Why the microphone buttons are greyed out: the offline coach answers in writing only.
export const voiceUnavailable = 'Voice calls are not available here yet: your coach is in its offline mode, which answers in writing only.';
export const voiceShellTexts = { startVoiceCall: voiceStartVoiceCall, unavailable: voiceUnavailable } as const;

export const microsoftConnectionActiveTitle = 'Microsoft Connection Active';
export const microsoftConnectionActiveBody = (service: string) => `${service} is connected.`;
export const microsoftShellTexts = { connectionActiveTitle: microsoftConnectionActiveTitle, connectionActiveBody: microsoftConnectionActiveBody } as const;

export const memorySidebarItem = 'Memory';
export const memoryMemoryUpdated = 'Memory updated';
export const memoryUndo = 'Undo';
export const memoryUndone = 'Memory change undone';
export const memorySearchShortcut = 'Ctrl+K';
export const memorySearchButton = 'Search chats';
export const memoryShellTexts = { sidebarItem: memorySidebarItem, memoryUpdated: memoryMemoryUpdated, undo: memoryUndo, undone: memoryUndone, searchShortcut: memorySearchShortcut, searchButton: memorySearchButton } as const;

export const goalSidebarItem = 'Goals';
export const goalReminderTitle = 'Time for a check-in';
export const goalReminderBody = (title: string) => `How is "${title}" going? Log where your key results are now.`;
export const goalShellTexts = { sidebarItem: goalSidebarItem, reminderTitle: goalReminderTitle, reminderBody: goalReminderBody } as const;

export const meetingsNavLabel = 'Meetings';
export const meetingsShellTexts = { navLabel: meetingsNavLabel } as const;

/** The sidebar's item for /nudges, the settings section's name. */
export const nudgesNavLabel = 'Nudges';
export const nudgesShellTexts = { navLabel: nudgesNavLabel } as const;

export const rehearsalShellTexts = { navLabel: rehearsalNavLabel, rehearsalBadge } as const;

export const microsoftSignedOut = 'Microsoft signed you out: your account was disabled or its sign-in revoked. Sign in again.';
export const microsoftSignInShellTexts = { signedOut: microsoftSignedOut } as const;

export const authLogoutFailedTitle = 'Logout failed';
export const authLogoutFailed = 'There was an error logging out.';
export const authLoggedOutTitle = 'Logged out';
export const authShellTexts = { logoutFailedTitle: authLogoutFailedTitle, logoutFailed: authLogoutFailed, loggedOutTitle: authLoggedOutTitle } as const;
