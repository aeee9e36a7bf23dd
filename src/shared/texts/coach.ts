import { groupThousands } from './format.js';
// Texts of the coach: the in-chat Microsoft email notes of the product spec's error catalogue (verbatim), and the
// messages of the OpenAI-compatible endpoint. The spec's chat texts (fallback reply, 'Failed to
// get a response. Please try again.') live in chat.ts.
export const coachTexts = {
  emailNotConnected: 'Microsoft Email not connected',
  emailUnavailable: 'Unable to access your Microsoft emails',
  emailProblem: 'There was a problem accessing your Microsoft emails',
  reconnectOnIntegrations: 'Reconnect Microsoft Email on the Integrations page (/integrations).',
  /**
   * The menu line the offline coach once put after the spec's fallback reply. It no longer says it
   * (it reflects and asks instead); the coaching evaluation counts a reply holding it as the fallback.
   */
  fallbackHint:
    'I can run a GROW session, set a SMART goal, draft OKRs, plan a meeting, prepare feedback or a hard conversation, or help with an email. Just tell me which.',
  rateLimited: (seconds: number) =>
    `Too many requests to the coach. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  tooManyMessages: (max: number) => `A request can carry at most ${max} messages`,
  messageTooLong: (max: number) => `Each message can be at most ${groupThousands(max)} characters`,
  conversationTooLong: (max: number) => `All messages together can be at most ${groupThousands(max)} characters`,
  noMessages: 'Send at least one message',
  badRole: 'Each message role must be system, user or assistant',
  badContent: 'Each message needs text content',
} as const;
