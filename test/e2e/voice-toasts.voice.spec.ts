import { expect, test } from '@playwright/test';
import { voiceTexts } from '../../src/shared/texts/index.js';
import { voiceReply } from './support/fakeMicrophone';

// The voice call's 'Processing Error' and 'Audio Playback Blocked' toasts (SPEC section
// 8), shown where they belong: a turn the server could not process, and audio the browser refused
// to play. The voice server, its fake microphone and fake OpenAI as in voice.voice.spec.ts.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test("a turn the server cannot process shows 'Processing Error', and the call goes on listening", async ({ page }) => {
  // The recording reaches the real server labelled as a type it does not take: it answers 415.
  const refused: number[] = [];
  await page.route('**/api/voice/turn*', (route) => route.continue({ headers: { ...route.request().headers(), 'content-type': 'audio/x-unknown' } }));
  page.on('response', (response) => {
    if (response.url().includes('/api/voice/turn')) refused.push(response.status());
  });
  await page.goto('/app');
  await page.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.active)).toBeVisible();
  await expect(page.getByText(voiceTexts.processingErrorTitle, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(voiceTexts.processingError)).toBeVisible();
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((status) => status === 415)).toBe(true);
  // Not taken for a transcription failure, and the call is still on.
  await expect(page.getByText(voiceTexts.transcriptionErrorTitle, { exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: voiceTexts.hangUp })).toBeVisible();
  await dialog.getByRole('button', { name: voiceTexts.hangUp }).click();
});

test("audio the browser refuses to play shows 'Audio Playback Blocked', and a click in the dialog lets the coach speak", async ({ page }) => {
  // Chromium runs this project with autoplay allowed; here it behaves as under a strict autoplay
  // policy: the call's audio stays suspended, and resume() waits for a click on the page.
  await page.addInitScript(() => {
    // Only a click after the call's audio was made counts (the one that started the call is too early).
    let clicked = false;
    document.addEventListener('pointerdown', () => (clicked = true), { capture: true });
    const state = Object.getOwnPropertyDescriptor(BaseAudioContext.prototype, 'state')!.get!;
    Object.defineProperty(BaseAudioContext.prototype, 'state', {
      configurable: true,
      get(this: BaseAudioContext) {
        return clicked ? state.call(this) : 'suspended';
      },
    });
    const resume = AudioContext.prototype.resume;
    AudioContext.prototype.resume = function (this: AudioContext) {
      return clicked ? resume.call(this) : new Promise<void>(() => {});
    };
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
      constructor(options?: AudioContextOptions) {
        super(options);
        clicked = false;
        void this.suspend();
      }
    };
  });
  await page.goto('/app');
  await page.getByRole('button', { name: voiceTexts.startVoiceCall }).click();
  const dialog = page.getByRole('dialog', { name: voiceTexts.dialogTitle });
  await expect(dialog.getByText(voiceTexts.active)).toBeVisible();
  await expect(page.getByText(voiceTexts.playbackBlockedTitle, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(voiceTexts.playbackBlocked)).toBeVisible();

  // A click anywhere in the dialog allows sound: the coach hears the fake microphone and speaks.
  await dialog.getByText(voiceTexts.footer).click();
  await expect(dialog.getByText(voiceReply)).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText(voiceTexts.speaking)).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('button', { name: voiceTexts.hangUp }).click();
});
