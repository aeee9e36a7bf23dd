import { groupThousands } from './format.js';
// Chat texts of the product spec's screens, states and transitions and error catalogue, verbatim where the spec gives them; the rest are the
// chat page's own labels, kept here so the client, the server and the tests share them.
export const chatTexts = {
  pageTitle: 'AI Coach Chat',
  greeting: "Hello! I'm your AI Coach. How can I help you with your professional development today?",
  inputPlaceholder: 'Message your AI Coach...',
  fallbackReply: "I'm not sure how to respond to that.",
  newChat: 'New Chat',
  recentChats: 'Recent Chats',
  agendaButtons: [
    'Save this agenda to the calendar invite',
    'Email this agenda to all participants',
    'Modify the agenda',
  ],
  errorTitle: 'Error',
  replyFailed: 'Failed to get a response. Please try again.',
  replyStalled: 'The coach stopped responding, so the reply was cut short. Please try again.',
  loadMessagesFailed: 'Failed to load messages',
  createChatFailed: 'Failed to create new chat',
  sendFailed: 'Failed to send message',
  renameFailed: 'Failed to update chat title',
  deleteFailed: 'Failed to delete chat',
  pinFailed: 'Failed to pin/unpin chat',
  stopFailed: 'Failed to stop the reply',
  copyFailed: 'Could not copy to the clipboard',
  chatNotFound: 'Chat not found',
  chatNotFoundHint: 'This chat does not exist, or it was deleted. Start a new one instead.',
  emptyMessage: 'Message cannot be empty',
  messageTooLong: (max: number) => `Messages can be at most ${groupThousands(max)} characters`,
  titleRequired: 'Title cannot be empty',
  titleTooLong: (max: number) => `Titles can be at most ${max} characters`,
  nothingToUpdate: 'Send a title or isPinned to change',
  replyRunning: 'Please wait for the current reply to finish',
  socketFlood: 'Too many messages in a short time: the connection was closed. Reload the page to continue.',
  dailyQuotaSpent: (limit: number) =>
    `You have reached today's limit of ${limit} coach ${limit === 1 ? 'reply' : 'replies'}. It resets at midnight UTC; your messages and chats are kept.`,
  onlyUserMessages: 'Only user messages can be sent',
  pageLimit: 'limit must be a whole number from 1 to 200',
  pageCursor: 'before must be the id of a message (a whole number)',
  noReplyRunning: 'No reply is running in this chat',
  offlineCoachNotice:
    'Offline coach: replies come from the built-in coaching engine because no AI model is configured (set OPENAI_API_KEY).',
  offlineCoachShort: 'Offline coach: replies come from the built-in coaching engine.',
  stoppedMark: 'Stopped',
  failedMark: 'Interrupted: the reply did not finish',

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
  loadOlder: 'Load earlier messages',
  loadingOlder: 'Loading earlier messages',
  loadingConversation: 'Loading conversation',
  copyMessage: 'Copy message',
  copiedMessage: 'Copied',
  retry: 'Try again',
  agendaActionsLabel: 'Agenda actions',
  modifyAgendaPrefix: 'Please modify the agenda: ',
  agendaFileName: 'meeting-agenda.ics',
  agendaSaveFailed: 'The calendar file could not be created',
  agendaEventTitle: 'Meeting',
  agendaEmailSubject: 'Meeting agenda',

  // The input.
  inputLabel: 'Message',
  send: 'Send message',
  stop: 'Stop reply',
  inputHint: 'Enter to send, Shift+Enter for a new line',
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
  renameLabel: 'Chat title',
  pin: 'Pin',
  unpin: 'Unpin',
  delete: 'Delete',
  cancel: 'Cancel',
  deleteConfirmTitle: 'Delete this chat?',
  deleteConfirmBody: (title: string) => `“${title}” and all its messages will be deleted. This cannot be undone.`,
} as const;

export type QuickStart = (typeof chatTexts.quickStarts)[number];

// A chat titled 'New Chat' takes the first 30 characters of its first message plus '...'.
export function autoChatTitle(firstMessage: string): string {
  return `${firstMessage.trim().replace(/\s+/g, ' ').slice(0, 30)}...`;
}
