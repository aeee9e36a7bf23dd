import { expect, test } from '@playwright/test';
import { microsoftTexts } from '../../src/shared/texts/index.js';
import { signUpFresh } from './support/microsoft.js';

// Device codes here expire after 4 seconds and are never approved.
test('an expired device code says so, and Try Again starts a new code', async ({ page, baseURL }) => {
  await signUpFresh(page, baseURL!);
  await page.goto('/microsoft-manual-auth?service=Microsoft%20Teams');
  await page.getByRole('button', { name: microsoftTexts.signInWithCode }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Microsoft Teams with a code' });
  const firstCode = await dialog.getByLabel('Sign-in code').textContent();
  await expect(dialog.getByLabel('Time left', { exact: true })).toHaveText(/^0:0[0-4]$/);
  await expect(dialog.getByRole('heading', { name: microsoftTexts.expiredTitle })).toBeVisible({ timeout: 10_000 });
  await expect(dialog.getByText(microsoftTexts.expiredBody)).toBeVisible();

  await dialog.getByRole('button', { name: microsoftTexts.tryAgain }).click();
  await expect(dialog.getByLabel('Sign-in code')).not.toHaveText(firstCode ?? '');
  await expect(dialog.getByLabel('Sign-in code')).toBeVisible();
});
