import { expect, type Page } from '@playwright/test';
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
/**
 * The app's message input, not the prerendered placeholder's that it takes over (first-keys.spec.ts
 * types into that one). A fill is a focus and then an inserted text, two steps: one that spanned the
 * takeover in CI lost its text (not seen again in 30 runs on a loaded machine), so a test that means
 * the app's input waits for it.
 */
export function messageInput(page: Page) {
  return page.getByPlaceholder(chatTexts.inputPlaceholder).and(page.locator('textarea:not([data-app-placeholder] textarea)'));
}

/** Waits until no reply is under way (no typing dots, no bubble still streaming). */
export async function replyFinished(page: Page) {
  await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: chatTexts.stop })).toHaveCount(0);
}

/** Types a message, sends it with Enter and waits for the coach's whole reply. */
export async function say(page: Page, text: string) {
  await messageInput(page).fill(text);
  await expect(messageInput(page)).toHaveValue(text);
  await messageInput(page).press('Enter');
  await expect(userMessages(page).last()).toContainText(text);
  await replyFinished(page);
  return coachMessages(page).last();
}
