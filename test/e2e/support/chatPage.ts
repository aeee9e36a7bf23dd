import type { Page } from '@playwright/test';
import { chatTexts } from '../../../src/shared/texts/index.js';

// The chat page as a user sees it: the conversation log, its messages by speaker, the input.
export function conversation(page: Page) {
  return page.getByRole('log', { name: chatTexts.conversationLabel });
}
export function coachMessages(page: Page) {
  return conversation(page).getByRole('article', { name: chatTexts.speakerCoach, exact: true });
}
export function userMessages(page: Page) {
  return conversation(page).getByRole('article', { name: chatTexts.speakerUser, exact: true });
}
export function messageInput(page: Page) {
  return page.getByPlaceholder(chatTexts.inputPlaceholder);
}
