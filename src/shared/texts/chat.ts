import { groupThousands } from './format.js';
// Chat texts of the product spec's screens, states and transitions and error catalogue, verbatim where the spec gives them; the rest are the
// chat page's own labels, kept here so the client, the server and the tests share them.
// What /app's first view draws (a new conversation, the sidebar's Recent Chats): chatViewTexts,
// which the first view's modules import. The rest (a stored chat's thread, the API's messages) is
// in chatMore.ts, where chatTexts holds both (about 0.5 KB gzipped of every first visit).
export const chatViewTexts = {
  pageTitle: 'AI Coach Chat',
  greeting: "Hello! I'm your AI Coach. How can I help you with your professional development today?",
  inputPlaceholder: 'Message your AI Coach...',
  newChat: 'New Chat',
  recentChats: 'Recent Chats',
  errorTitle: 'Error',
  createChatFailed: 'Failed to create new chat',
  sendFailed: 'Failed to send message',
  renameFailed: 'Failed to update chat title',
  deleteFailed: 'Failed to delete chat',
  pinFailed: 'Failed to pin/unpin chat',
  messageTooLong: (max: number) => `Messages can be at most ${groupThousands(max)} characters`,
  titleRequired: 'Title cannot be empty',
  titleTooLong: (max: number) => `Titles can be at most ${max} characters`,
  // What the offline coach means for the person chatting; what an operator sets to change it is in
  // docs/configuration.md, never on a screen.
  offlineCoachNotice:
    'Offline mode: your coach answers from its built-in coaching steps rather than an AI model, so replies are shorter and more structured, and voice calls are off.',
  offlineCoachShort: 'Offline mode: built-in coaching steps, no AI model.',

  // The page header.
  copyConversation: 'Copy',
  copyConversationLabel: 'Copy conversation',
  saveConversation: 'Save',
  saveConversationLabel: 'Save conversation as Markdown',
  newChatLabel: 'Start a new chat',

  // The conversation.
  conversationLabel: 'Conversation',
  speakerUser: 'You',
  speakerCoach: 'AI Coach',
  typing: 'Coach is typing',
  loadingConversation: 'Loading conversation',

  // The input.
  inputLabel: 'Message',
  sendQueued: 'Sending as soon as the coach is ready…',
  send: 'Send message',
  stop: 'Stop reply',
  charactersLeft: (left: number) => `${groupThousands(left)} characters left`,

  // Coaching tools: quick starts that send a first message.
  coachingToolsTitle: 'Coaching tools',
  coachingToolsIntro: 'Pick a quick start, or just type below.',
  coachingToolsMenu: 'Coaching tools',
  quickStarts: [
    {
      id: 'grow',
      label: 'GROW session',
      description: 'Goal, Reality, Options, Will: work through a challenge step by step.',
      message: "Let's run a GROW session",
    },
    {
      id: 'smart',
      label: 'SMART goal',
      description: 'Turn an intention into a Specific, Measurable, Achievable, Relevant, Time-bound goal.',
      message: 'Help me set a SMART goal',
    },
    {
      id: 'okr',
      label: 'OKRs',
      description: 'Draft an objective with measurable key results for the quarter.',
      message: 'Help me write OKRs',
    },
    {
      id: 'agenda',
      label: 'Meeting agenda',
      description: 'Plan a focused meeting with a timed running order.',
      message: 'Help me prepare a meeting agenda',
    },
    {
      id: 'feedback',
      label: 'Prepare feedback',
      description: 'Structure clear, kind and specific feedback for someone.',
      message: 'Help me prepare feedback for a colleague',
    },
    {
      id: 'email',
      label: 'Help with an email',
      description: 'Draft or improve an email with the right tone.',
      message: 'Help me write an email',
    },
  ],

  // The sidebar's Recent Chats.
  noChats: 'No chats yet',
  loadingChats: 'Loading chats',
  pinned: 'Pinned',
  chatOptions: (title: string) => `Chat options for ${title}`,
  rename: 'Rename',
  pin: 'Pin',
  unpin: 'Unpin',
  delete: 'Delete',
  cancel: 'Cancel',
  deleteConfirmTitle: 'Delete this chat?',
  deleteConfirmBody: (title: string) => `“${title}” and all its messages will be deleted. This cannot be undone.`,
} as const;

export type QuickStart = (typeof chatViewTexts.quickStarts)[number];

// A chat titled 'New Chat' takes the first 30 characters of its first message plus '...'.
export function autoChatTitle(firstMessage: string): string {
  return `${firstMessage.trim().replace(/\s+/g, ' ').slice(0, 30)}...`;
}
