// Chat texts of SPEC sections 2, 4 and 8, verbatim where the spec gives them.
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
  loadMessagesFailed: 'Failed to load messages',
  createChatFailed: 'Failed to create new chat',
  sendFailed: 'Failed to send message',
  renameFailed: 'Failed to update chat title',
  deleteFailed: 'Failed to delete chat',
  pinFailed: 'Failed to pin/unpin chat',
  chatNotFound: 'Chat not found',
  emptyMessage: 'Message cannot be empty',
  messageTooLong: (max: number) => `Messages can be at most ${max.toLocaleString('en-US')} characters`,
  titleRequired: 'Title cannot be empty',
  titleTooLong: (max: number) => `Titles can be at most ${max} characters`,
  nothingToUpdate: 'Send a title or isPinned to change',
  replyRunning: 'Please wait for the current reply to finish',
  onlyUserMessages: 'Only user messages can be sent',
  noReplyRunning: 'No reply is running in this chat',
  offlineCoachNotice:
    'Offline coach: replies come from the built-in coaching engine because no AI model is configured (set OPENAI_API_KEY).',
  stoppedMark: 'Stopped',
} as const;

// A chat titled 'New Chat' takes the first 30 characters of its first message plus '...'.
export function autoChatTitle(firstMessage: string): string {
  return `${firstMessage.trim().replace(/\s+/g, ' ').slice(0, 30)}...`;
}
