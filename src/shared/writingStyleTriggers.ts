import { writingStyleLimits } from './constants.js';

// The product spec's screens, Chat-embedded writing style panel: the panel appears when any of the last 3
// user messages mentions (case-insensitive) one of these, or contains both 'generate' and 'email'.
const triggerPhrases = ['writing style', 'writing profile', 'email style', 'my writing style'] as const;

export function mentionsWritingStyle(text: string): boolean {
  const lower = text.toLowerCase();
  if (triggerPhrases.some((phrase) => lower.includes(phrase))) return true;
  return lower.includes('generate') && lower.includes('email');
}

/** Whether the panel shows, given the chat's messages in order. */
export function stylePanelTriggered(messages: ReadonlyArray<{ role: string; content: string }>): boolean {
  return messages
    .filter((message) => message.role === 'user')
    .slice(-writingStyleLimits.scannedUserMessages)
    .some((message) => mentionsWritingStyle(message.content));
}
