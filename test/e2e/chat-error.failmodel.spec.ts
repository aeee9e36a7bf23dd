import { expect, test, type Page } from '@playwright/test';
import { chatTexts } from '../../src/shared/texts/index.js';
import { coachMessages, messageInput, userMessages } from './support/chatPage.js';

// A provider failure, against a model that always answers 500 (the fake OpenAI server at port
// 4321; playwright.config.ts, project 'failing-model'): the toast of the product spec's error catalogue, the typing
// placeholder removed, the user's message kept.


async function sendAndExpectFailure(page: Page, text: string, userCount: number) {
  await messageInput(page).fill(text);
  await messageInput(page).press('Enter');

  const toast = page.getByRole('alert').filter({ hasText: chatTexts.replyFailed });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(chatTexts.errorTitle);
  await expect(page.getByRole('status', { name: chatTexts.typing })).toHaveCount(0);
  await expect(userMessages(page)).toHaveCount(userCount);
  await expect(userMessages(page).last()).toContainText(text);
  // Only the greeting: the failed reply left nothing behind.
  await expect(coachMessages(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: chatTexts.send })).toBeVisible();
  // Dismissed, so that the next failure's toast is a new one.
  await toast.getByRole('button').click();
  await expect(toast).toBeHidden();
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('a failed reply shows the error toast, removes the typing dots and keeps the message', async ({ page }) => {
  await page.goto('/app?new=true');

  // The first message of a new chat: the reply may fail before the chat's live events start.
  await sendAndExpectFailure(page, 'Help me get ready for my review', 1);
  await expect(page).toHaveURL(/\/app\?chat=\d+$/);

  // In an open chat the failure arrives as a live event; the chat still takes messages.
  await sendAndExpectFailure(page, 'Let me try that again', 2);

  await page.reload();
  await expect(userMessages(page)).toHaveCount(2);
  await expect(coachMessages(page)).toHaveCount(1);
});
