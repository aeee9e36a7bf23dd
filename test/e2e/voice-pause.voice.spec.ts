import { expect, test } from '@playwright/test';
import { voiceTexts } from '../../src/shared/texts/index.js';
import { pausingMicrophoneLaunchArgs } from '../../playwright.config';
import { userMessages } from './support/chatPage';
import { spokenSentence, voiceReply } from './support/fakeMicrophone';

// The browser call's speculative reply. This file's browser has its own microphone: the
// sentence stops halfway for 450 ms, longer than the pause that starts a speculative reply (250 ms)
// and shorter than the silence that ends the turn (700 ms), as when someone draws breath.
test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: pausingMicrophoneLaunchArgs } });
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('the reply started at the pause is given up when the user goes on: nothing shown, played or stored; the turn is answered once', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.speaking)).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: voiceTexts.hangUp }).click();
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })));
  const at = (name: string) => marks.filter((m) => m.name === name).map((m) => m.at);
  const [turnEnd] = at('voice:turn-end');
  expect(turnEnd).toBeGreaterThan(0);
  const sequence = JSON.stringify(marks.map((m) => `${m.name}@${m.at.toFixed(0)}`));
  // A reply was asked for at the breath and given up when the voice came back, before the turn
  // ended (its tokens, when they had come, were neither shown nor played). On a quiet machine this
  // is the first turn; on a loaded one the browser's 20 ms timers lag and the order may differ.
  const discarded = at('voice:speculation-discarded');
  expect(discarded.length, sequence).toBeGreaterThan(0);
  expect(at('voice:speculation')[0], sequence).toBeLessThan(discarded[0]!);
  // Nothing is played before the turn ended.
  expect(at('voice:first-audio')[0], sequence).toBeGreaterThan(turnEnd!);

  // The chat holds the turn once: the speculative reply given up was never stored.
  await dialog.getByRole('link', { name: voiceTexts.openChat }).click();
  const chatId = Number(new URL(page.url()).searchParams.get('chat'));
  await expect(userMessages(page).first()).toContainText(spokenSentence);
  const stored = (await (await page.request.get(`/api/chats/${chatId}/messages`)).json()) as Array<{ role: string; content: string }>;
  expect(stored[0]).toMatchObject({ role: 'user', content: spokenSentence });
  expect(stored[1]?.role).toBe('assistant');
  // All of the reply, or what was heard of it (on a slow machine the microphone's loop may speak over it first).
  expect(voiceReply.startsWith(stored[1]!.content)).toBe(true);
  // Each stored turn is a turn that ended: none comes from a speculative reply given up.
  expect(stored.filter((m) => m.role === 'user').length).toBeLessThanOrEqual(at('voice:turn-end').length);
});
