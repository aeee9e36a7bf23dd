import { expect, test } from '@playwright/test';
import { phoneTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { coachMessages, userMessages } from './support/chatPage';
import { spokenSentence, voiceReply } from './support/fakeMicrophone';
import { ports } from '../../playwright.config';

// A call takes real seconds of (fake) speech, and a loaded machine makes every step slower.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

// The voice server: Chromium's fake microphone speaks a sentence (espeak-ng), the fake OpenAI
// transcribes and speaks, the fake Twilio takes calls.

test('a voice call from the chat: speech, transcript, the spoken reply, mute and hang-up', async ({ page }) => {
  // Each turn is one request with the recording; its sentences are spoken under its speech allowance.
  const turns: string[] = [];
  const speech: Array<{ allowance?: string }> = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/voice/turn')) turns.push(request.headers()['content-type'] ?? '');
    if (request.url().endsWith('/api/voice/synthesize')) speech.push(request.postDataJSON() as { allowance?: string });
  });
  await page.goto('/app');
  await page.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.connecting)).toBeVisible();
  await expect(dialog.getByText(voiceTexts.active)).toBeVisible();
  await expect(dialog.getByText(voiceTexts.footer)).toBeVisible();
  await expect(dialog.getByLabel('Call duration')).toHaveText(/^00:0\d$/);

  // Nobody presses a button: the pause after the sentence ends the turn.
  await expect(dialog.getByText(voiceTexts.youSaid)).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByText(spokenSentence)).toBeVisible();
  await expect(dialog.getByText(voiceTexts.coach)).toBeVisible({ timeout: 10_000 });
  await expect(dialog.getByText(voiceReply)).toBeVisible();
  // The reply is spoken, then the coach listens again.
  await expect(dialog.getByText(voiceTexts.speaking)).toBeVisible();
  expect(turns.length).toBeGreaterThan(0);
  expect(turns.every((type) => type.startsWith('audio/'))).toBe(true);
  expect(speech.length).toBeGreaterThan(0);
  expect(speech.every((body) => typeof body.allowance === 'string' && body.allowance.length > 20)).toBe(true);

  await dialog.getByRole('button', { name: voiceTexts.mute }).click();
  await expect(dialog.getByText(voiceTexts.muted)).toBeVisible();
  await expect(dialog.getByRole('button', { name: voiceTexts.unmute })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByRole('button', { name: voiceTexts.speakerOff }).click();
  await expect(dialog.getByRole('button', { name: voiceTexts.speakerOn })).toBeVisible();

  await dialog.getByRole('button', { name: voiceTexts.hangUp }).click();
  await expect(dialog.getByText(voiceTexts.ended, { exact: true })).toBeVisible();
  await expect(dialog.getByText(/^Call ended after \d\d:\d\d$/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: voiceTexts.hangUp })).toHaveCount(0);

  // The conversation is a chat in the history.
  await dialog.getByRole('link', { name: voiceTexts.openChat }).click();
  await expect(userMessages(page).first()).toContainText(spokenSentence);
  // What was heard of the reply (the fake microphone may speak over its end).
  await expect(coachMessages(page).filter({ hasText: /Start/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /^Voice call / }).first()).toBeVisible();
});

test('speaking over the coach stops it mid-sentence, the next turn is heard, and the chat keeps what was heard', async ({ page }) => {
  // The fake microphone speaks its sentence again 3 s after it ended; the coach's first sentence
  // lasts 3 s and starts about 1 s after the end of the turn: the user speaks over it.
  await page.goto('/app');
  await page.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.speaking)).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByText(voiceReply)).toBeVisible();

  // The user speaks: playback stops and a new turn records.
  await expect(dialog.getByText(voiceTexts.recording)).toBeVisible({ timeout: 10_000 });
  await expect(dialog.getByText(voiceTexts.speaking)).toHaveCount(0);
  const marks = (name: string) => page.evaluate((mark) => performance.getEntriesByName(mark).map((entry) => entry.startTime), name);
  const [bargeIn] = await marks('voice:barge-in');
  expect(bargeIn).toBeGreaterThan(0);
  // The reply shown becomes what was heard: the start of the first sentence, not all of it.
  const firstSentence = voiceReply.slice(0, voiceReply.indexOf('.') + 1);
  const shown = dialog.getByText(/^Start/);
  await expect.poll(async () => ((await shown.textContent()) ?? '').length, { timeout: 15_000 }).toBeLessThan(firstSentence.length);
  const heard = (await shown.textContent()) ?? '';
  expect(voiceReply.startsWith(heard)).toBe(true);

  // The next turn is heard and answered.
  await expect.poll(async () => (await marks('voice:user-speech-end')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect.poll(async () => (await marks('voice:first-audio')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await dialog.getByRole('button', { name: voiceTexts.hangUp }).click();

  // The chat keeps what was heard of the interrupted reply (a beginning no model reply is).
  await dialog.getByRole('link', { name: voiceTexts.openChat }).click();
  const chatId = Number(new URL(page.url()).searchParams.get('chat'));
  await expect(userMessages(page).filter({ hasText: spokenSentence }).nth(1)).toBeVisible({ timeout: 10_000 });
  const stored = (await (await page.request.get(`/api/chats/${chatId}/messages`)).json()) as Array<{ role: string; content: string; status: string }>;
  expect(stored).toContainEqual(expect.objectContaining({ role: 'assistant', content: heard, status: 'stopped' }));
  await expect(coachMessages(page).filter({ hasText: heard }).first()).toBeVisible();
});

test('the phone page: three cards, the phone dialog validates, calls, ends and starts anew', async ({ page }) => {
  // The coach calls only an account's verified number: a registered user verifies one.
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  expect((await page.request.post('/api/auth/register', { data: { username: `caller${Date.now()}`, password: 'secret-pass', fullName: 'Cal Caller' } })).status()).toBe(201);
  expect((await page.request.post('/api/phone/verification', { data: { phoneNumber: phone } })).status()).toBe(200);
  const texts = (await (await page.request.get(`http://127.0.0.1:${ports.twilioFake}/fake/messages`)).json()) as Array<{ to: string; body: string }>;
  const code = /\b(\d{6})\b/.exec(texts.filter((m) => m.to === phone).at(-1)?.body ?? '')?.[1];
  expect((await page.request.post('/api/phone/verification/confirm', { data: { code } })).status()).toBe(200);
  await page.goto('/app');
  await page.getByRole('link', { name: 'Voice Assistant' }).click();
  await expect(page).toHaveURL(/\/phone-calls$/);
  await expect(page.getByRole('heading', { name: phoneTexts.pageTitle })).toBeVisible();
  for (const title of [phoneTexts.receiveTitle, phoneTexts.setupTitle, phoneTexts.browserTitle]) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  await expect(page.getByText('/api/twilio/voice/incoming').first()).toBeVisible();

  await page.getByRole('button', { name: phoneTexts.receiveButton }).click();
  const dialog = page.getByRole('dialog', { name: phoneTexts.dialogTitle });
  await dialog.getByRole('button', { name: phoneTexts.call, exact: true }).click();
  await expect(page.getByText(phoneTexts.numberRequired).first()).toBeVisible();
  await dialog.getByLabel(phoneTexts.numberLabel).fill('12345');
  await dialog.getByRole('button', { name: phoneTexts.call, exact: true }).click();
  await expect(dialog.getByText(phoneTexts.invalidNumber)).toBeVisible();

  await dialog.getByLabel(phoneTexts.numberLabel).fill(phone);
  await dialog.getByRole('button', { name: phoneTexts.call, exact: true }).click();
  await expect(page.getByText(phoneTexts.callInitiated)).toBeVisible();
  await expect(dialog.getByText(phoneTexts.calling)).toBeVisible();
  await dialog.getByRole('button', { name: phoneTexts.endCall }).click();
  await expect(dialog.getByText(phoneTexts.endedBody)).toBeVisible();
  await dialog.getByRole('button', { name: phoneTexts.newCall }).click();
  await expect(dialog.getByLabel(phoneTexts.numberLabel)).toBeVisible();
});

test('voice chat in browser opens the voice call from the phone page', async ({ page }) => {
  await page.goto('/phone-calls');
  await page.getByRole('button', { name: phoneTexts.browserButton }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.active)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
