import { expect, test } from '@playwright/test';
import { phoneTexts, voiceTexts } from '../../src/shared/texts/index.js';

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

// The demo server has neither Twilio nor a model provider: both say how to configure them.
test('without Twilio and an AI provider, the phone page and the voice dialog explain what to configure', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('link', { name: 'Call AI Coach' }).click();
  await expect(page).toHaveURL(/\/phone-calls$/);
  await expect(page.getByText(phoneTexts.notConfigured)).toBeVisible();
  await expect(page.getByRole('button', { name: phoneTexts.receiveButton })).toBeDisabled();
  // No voice either: the browser's voice chat is greyed out and says why.
  await expect(page.getByRole('button', { name: phoneTexts.browserButton })).toBeDisabled();
  await page.getByRole('button', { name: phoneTexts.browserButton }).hover();
  await expect(page.getByRole('tooltip', { name: voiceTexts.unavailable })).toBeVisible();
});
