import { expect, test } from '@playwright/test';
import { ports } from '../../playwright.config';
import { phoneVerificationTexts, rehearsalTexts, voiceTexts } from '../../src/shared/texts';

// Rehearsals by voice: a rehearsal chat's bar offers a browser voice call and, with phone calls
// configured and a verified number, 'Call me' (the other person calls through the fake Twilio).
const fakeTwilio = `http://127.0.0.1:${ports.twilioFake}`;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('a rehearsal chat offers a voice call in the browser and Call me once the number is verified', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const t = rehearsalTexts;
  const username = `rehearser${Date.now()}`;
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  expect((await page.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Rae Hearse' } })).status()).toBe(201);
  const created = await page.request.post('/api/rehearsals', {
    data: { counterpart: { name: 'Sam Rivera', role: 'Head of Sales' }, situation: 'The launch slips by two weeks.', goal: 'agree the new date', difficulty: 'realistic' },
  });
  expect(created.status()).toBe(201);
  const { chatId } = (await created.json()) as { chatId: number };

  // Before the number is verified: Call me says what to do, and calls nobody.
  await page.goto(`/app?chat=${chatId}`);
  const bar = page.getByRole('region', { name: t.rehearsalBadge });
  await expect(bar.getByRole('button', { name: voiceTexts.startVoiceCall })).toBeVisible();
  const callMe = bar.getByRole('button', { name: t.callMe });
  await expect(callMe).toBeDisabled();
  await callMe.hover();
  await expect(page.getByText(t.callNeedsVerifiedPhone)).toBeVisible();

  expect((await page.request.post('/api/phone/verification', { data: { phoneNumber: phone } })).status()).toBe(200);
  const messages = (await (await page.request.get(`${fakeTwilio}/fake/messages`)).json()) as Array<{ to: string; body: string }>;
  const code = /\b(\d{6})\b/.exec(messages.filter((m) => m.to === phone).at(-1)?.body ?? '')?.[1];
  expect((await page.request.post('/api/phone/verification/confirm', { data: { code } })).status(), phoneVerificationTexts.verified).toBe(200);

  await page.reload();
  await expect(callMe).toBeEnabled();
  await callMe.click();
  await expect(page.getByText(t.callPlaced('Sam Rivera'))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('rehearsal-bar.png') });

  // The browser call opens on this chat.
  await bar.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  await expect(page.getByRole('dialog', { name: voiceTexts.dialogTitle })).toBeVisible();
});
