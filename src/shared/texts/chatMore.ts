import { chatViewTexts } from './chat.js';

// The chat texts a first view of /app does not draw (chat.ts), and chatTexts: all of them, for
// the server, the tests and the rest of the client.
const chatMoreTexts = {
  // Replies, the API's messages and the thread of a stored chat.
  fallbackReply: "I'm not sure how to respond to that.",
  agendaButtons: [
    'Save this agenda to the calendar invite',
    'Email this agenda to all participants',
    'Modify the agenda',
  ],
  replyFailed: 'Failed to get a response. Please try again.',
  replyStalled: 'The coach stopped responding, so the reply was cut short. Please try again.',
  loadMessagesFailed: 'Failed to load messages',
  stopFailed: 'Failed to stop the reply',
  copyFailed: 'Could not copy to the clipboard',
  chatNotFound: 'Chat not found',
  chatNotFoundHint: 'This chat does not exist, or it was deleted. Start a new one instead.',
  emptyMessage: 'Message cannot be empty',
  nothingToUpdate: 'Send a title or isPinned to change',
  replyRunning: 'Please wait for the current reply to finish',
  socketFlood: 'Too many messages in a short time: the connection was closed. Reload the page to continue.',
  dailyQuotaSpent: (limit: number) =>
    `You have reached today's limit of ${limit} coach ${limit === 1 ? 'reply' : 'replies'}. It resets at midnight UTC; your messages and chats are kept.`,
  onlyUserMessages: 'Only user messages can be sent',
  pageLimit: 'limit must be a whole number from 1 to 200',
  pageCursor: 'before must be the id of a message (a whole number)',
  noReplyRunning: 'No reply is running in this chat',
  stoppedMark: 'Stopped',
  failedMark: 'Interrupted: the reply did not finish',
  loadOlder: 'Load earlier messages',
  loadingOlder: 'Loading earlier messages',
  copyMessage: 'Copy message',
  copiedMessage: 'Copied',
  retry: 'Try again',
  agendaActionsLabel: 'Agenda actions',
  modifyAgendaPrefix: 'Please modify the agenda: ',
  agendaFileName: 'meeting-agenda.ics',
  agendaSaveFailed: 'The calendar file could not be created',
  agendaEventTitle: 'Meeting',
  agendaEmailSubject: 'Meeting agenda',
  // A chat that prepares no meeting asks which meeting the agenda is for.
  agendaPickTitle: 'Which meeting is this agenda for?',
  agendaPickSaveHint: 'Choose one of your meetings of the next 7 days: the agenda is written at the top of its invite, and its attendees get the updated invite.',
  agendaPickEmailHint: 'Choose one of your meetings of the next 7 days: an email draft opens, addressed to its participants, with this agenda as its text.',
  agendaPickListLabel: 'Your meetings of the next 7 days',
  agendaPickLoading: 'Loading your meetings…',
  agendaPickNone: 'No meetings in the next 7 days.',
  agendaPickDownloadHint: (when: string, minutes: number) =>
    `Or download a calendar file (meeting-agenda.ics): a new event on ${when}, ${minutes} minutes, with this agenda in its description. Open it to add the event to your calendar, then move it where it belongs.`,
  agendaPickDownload: 'Download the calendar file',
  agendaPickDraftHint: 'Or open an email draft with this agenda and address it yourself.',
  agendaPickDraft: 'Open an email draft',
  agendaPickMeeting: (subject: string, when: string) => `${subject}, ${when}`,
  inputHint: 'Enter to send, Shift+Enter for a new line',
  renameLabel: 'Chat title',
} as const;

// A call marked pure, not an object spread: the bundler counts a spread of an imported object as a
// side effect and kept this module in the entry's chunk, wherever the texts' catalogue is imported.
export const chatTexts = /* @__PURE__ */ Object.assign({}, chatViewTexts, chatMoreTexts);
