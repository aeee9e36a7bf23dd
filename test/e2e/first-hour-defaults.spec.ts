import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chatTexts, nudgesTexts, phoneTexts, settingsTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { messageInput } from './support/chatPage.js';

// What a new user meets before choosing anything: the time zone is the browser's, never UTC by
// default, and a zone once chosen is kept whatever browser opens the app next; on a server without
// voice (the demo server's offline coach) the microphone buttons are greyed out and say why; and no
// screen names an environment variable (those are the operator's: docs/configuration.md).

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const username = `defaults${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  const res = await page.request.post('/api/auth/register', { data: { username, password: 'defaults-secret-1', fullName: 'Dee Fault' }, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

const adoptAnswered = (page: Page) => page.waitForResponse((response) => response.url().includes('meetings.adoptTimeZone'));
const savedZone = async (page: Page) => ((await (await page.request.get('/trpc/meetings.settings')).json()) as { result: { data: { timeZone: string } } }).result.data.timeZone;

test('a new account takes the browser time zone, and a zone it chose is kept in a browser elsewhere', async ({ browser, baseURL }) => {
  const tokyo = await browser.newContext({ baseURL, timezoneId: 'Asia/Tokyo' });
  await tokyo.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const page = await tokyo.newPage();
  await signUpFreshUser(page, baseURL);

  await page.goto('/settings?tab=notifications');
  await expect(page.getByRole('tab', { name: settingsTexts.tabs.notifications, selected: true })).toBeVisible();
  await expect(page.getByText(nudgesTexts.timeZoneNote('Asia/Tokyo'))).toBeVisible();
  // The weekly review is planned at 08:30 in Tokyo.
  await expect(page.getByTestId('nudge-next-run')).toContainText('08:30');
  expect(await savedZone(page)).toBe('Asia/Tokyo');

  // The user chooses Paris; a browser in New York offers its zone, which is not taken.
  const chosen = await page.request.post('/trpc/meetings.setTimeZone', { data: { timeZone: 'Europe/Paris' }, headers: { origin: baseURL ?? '' } });
  expect(chosen.status()).toBe(200);
  const newYork = await browser.newContext({ baseURL, timezoneId: 'America/New_York', storageState: await tokyo.storageState() });
  const elsewhere = await newYork.newPage();
  const answered = adoptAnswered(elsewhere);
  await elsewhere.goto('/settings?tab=notifications');
  expect((await answered).status()).toBe(200);
  await expect(elsewhere.getByText(nudgesTexts.timeZoneNote('Europe/Paris'))).toBeVisible();
  expect(await savedZone(elsewhere)).toBe('Europe/Paris');
  await tokyo.close();
  await newYork.close();
});

test("a visitor's guest space takes the browser time zone once their first write makes it", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, timezoneId: 'America/Sao_Paulo' });
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const page = await context.newPage();
  // A visitor reading the demo sends nothing.
  const adoptCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('meetings.adoptTimeZone')) adoptCalls.push(request.url());
  });
  await page.goto('/settings');
  await expect(page.getByRole('textbox', { name: settingsTexts.fullName, exact: true })).toBeVisible();
  // The first write makes the guest space; the next page load offers the browser's zone.
  const wrote = await page.request.post('/api/memories', { data: { text: 'I lead the design team.', kind: 'fact' }, headers: { origin: baseURL ?? '' } });
  expect(wrote.status()).toBe(201);
  expect(adoptCalls).toHaveLength(0);
  const answered = adoptAnswered(page);
  await page.reload();
  expect((await answered).status()).toBe(200);
  expect(await savedZone(page)).toBe('America/Sao_Paulo');
  await context.close();
});

test('without voice, the microphone buttons are greyed out and say why, on hover and on focus', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await page.goto('/app?new=true');
  const microphone = page.getByRole('main').getByRole('button', { name: voiceTexts.startVoiceCall });
  await expect(microphone).toBeDisabled();
  await microphone.hover();
  await expect(page.getByRole('tooltip', { name: voiceTexts.unavailable })).toBeVisible();
  await page.mouse.move(5, 400);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  // The keyboard reaches the reason: the wrapper takes the focus the disabled button cannot.
  await messageInput(page).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('main').getByRole('group', { name: voiceTexts.unavailable })).toBeFocused();
  await expect(page.getByRole('tooltip', { name: voiceTexts.unavailable })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  await page.goto('/phone-calls');
  const browserVoice = page.getByRole('button', { name: phoneTexts.browserButton });
  await expect(browserVoice).toBeDisabled();
  await browserVoice.hover();
  await expect(page.getByRole('tooltip', { name: voiceTexts.unavailable })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

const variables = [...fs.readFileSync('.env.example', 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9]*_[A-Z0-9_]+)=/gm)].map((m) => m[1]!);

test('no screen names an environment variable: the offline coach and missing providers are told in a user\'s words', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await signUpFreshUser(page, baseURL);
  await page.goto('/app?new=true');
  await expect(page.getByText(chatTexts.offlineCoachNotice)).toBeVisible();
  for (const path of ['/app?new=true', '/phone-calls', '/settings?tab=profile', '/settings?tab=notifications', '/settings?tab=privacy', '/settings?tab=integrations', '/integrations', '/microsoft-manual-auth', '/microsoft-emails', '/writing-style-analysis', '/meetings']) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const text = await page.locator('body').innerText();
    expect(variables.filter((name) => text.includes(name)), path).toEqual([]);
  }
});
