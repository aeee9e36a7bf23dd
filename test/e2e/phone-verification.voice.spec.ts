import { expect, test } from '@playwright/test';
import { phoneTexts, phoneVerificationTexts } from '../../src/shared/texts';
import { ports } from '../../playwright.config';

// A person verifies their phone in Settings with the texted code, sets the phone
// PIN, and the coach then calls only that number.
const fakeTwilio = `http://127.0.0.1:${ports.twilioFake}`;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

async function lastCodeTo(request: import('@playwright/test').APIRequestContext, phone: string): Promise<string> {
  const messages = (await (await request.get(`${fakeTwilio}/fake/messages`)).json()) as Array<{ to: string; body: string }>;
  const body = messages.filter((m) => m.to === phone).at(-1)?.body ?? '';
  return /\b(\d{6})\b/.exec(body)?.[1] ?? '';
}

test('verifies the phone with the texted code, sets and removes the PIN, and only the verified number is called', async ({ page }) => {
  test.setTimeout(120_000);
  const username = `verifier${Date.now()}`;
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  expect((await page.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Vera Phone' } })).status()).toBe(201);

  // Receive a call refuses an unverified number and points to Settings.
  await page.goto('/phone-calls');
  await page.getByRole('button', { name: phoneTexts.receiveButton }).click();
  await page.getByLabel(phoneTexts.numberLabel).fill(phone);
  await page.getByRole('button', { name: phoneTexts.call, exact: true }).click();
  await expect(page.getByRole('alert').getByText(phoneVerificationTexts.mustVerify)).toBeVisible();
  await page.getByRole('link', { name: phoneVerificationTexts.verifyInSettings }).click();
  await expect(page).toHaveURL(/\/settings/);

  await expect(page.getByRole('heading', { name: phoneVerificationTexts.verifyTitle })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(phoneVerificationTexts.numberToVerify).fill(phone);
  await expect(page.getByLabel(phoneVerificationTexts.numberToVerify)).toHaveValue(phone);
  await page.getByRole('button', { name: phoneVerificationTexts.verify, exact: true }).click();
  await expect(page.getByText(phoneVerificationTexts.codeSent(phone))).toBeVisible();

  // A wrong code is refused in place, with the tries left.
  const code = await lastCodeTo(page.request, phone);
  expect(code).toMatch(/^\d{6}$/);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel(phoneVerificationTexts.codeLabel).fill(wrong);
  await page.getByRole('button', { name: phoneVerificationTexts.confirm }).click();
  await expect(page.getByRole('alert').getByText(phoneVerificationTexts.wrongCode(4))).toBeVisible();

  await page.getByLabel(phoneVerificationTexts.codeLabel).fill(code);
  await page.getByRole('button', { name: phoneVerificationTexts.confirm }).click();
  await expect(page.getByText(phoneVerificationTexts.verifiedToast)).toBeVisible();
  await expect(page.getByText(phoneVerificationTexts.verified, { exact: true })).toBeVisible();

  // The phone PIN: a bad one is refused, a good one set, then removed.
  await page.getByLabel(phoneVerificationTexts.pinLabel).fill('12a');
  await page.getByRole('button', { name: phoneVerificationTexts.pinSave }).click();
  await expect(page.getByText(phoneVerificationTexts.pinInvalid)).toBeVisible();
  await page.getByLabel(phoneVerificationTexts.pinLabel).fill('4821');
  await page.getByRole('button', { name: phoneVerificationTexts.pinSave }).click();
  await expect(page.getByText(phoneVerificationTexts.pinSet, { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/phone-verification-settings.png', fullPage: true });
  await page.getByRole('button', { name: phoneVerificationTexts.pinRemove }).click();
  await expect(page.getByText(phoneVerificationTexts.pinNotSet, { exact: true })).toBeVisible();

  // Now the coach calls the verified number.
  await page.goto('/phone-calls');
  await page.getByRole('button', { name: phoneTexts.receiveButton }).click();
  await page.getByLabel(phoneTexts.numberLabel).fill(phone);
  await page.getByRole('button', { name: phoneTexts.call, exact: true }).click();
  await expect(page.getByText(phoneTexts.calling)).toBeVisible();
});
