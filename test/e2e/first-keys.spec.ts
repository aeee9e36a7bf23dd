import { expect, test, type Page } from '@playwright/test';
import { chatTexts, onboardingTexts } from '../../src/shared/texts/index.js';
import { messageInput, userMessages } from './support/chatPage.js';
import { holdRequests } from './support/holdRequests.js';

// /app is drawn from its prerendered placeholder before any script runs; on a phone the app takes
// it over seconds later. A person who sees the input types at once: every key typed before, while
// and after the app takes over ends up in the message sent, the caret where it was.
// The CPU is slowed four times (as Lighthouse's phone is), so the app takes over well after the
// first paint and the typing spans the takeover.

test.setTimeout(120_000);

async function slowPhone(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/** What the server stored as the user's messages of the chat the page shows (?chat={id}). */
async function sentMessages(page: Page): Promise<string[]> {
  await expect(page).toHaveURL(/chat=\d+/, { timeout: 60_000 });
  const chatId = new URL(page.url()).searchParams.get('chat');
  const res = await page.request.get(`/api/chats/${chatId}/messages`);
  expect(res.status()).toBe(200);
  const messages = (await res.json()) as Array<{ role: string; content: string }>;
  return messages.filter((message) => message.role === 'user').map((message) => message.content);
}

/**
 * Holds the app's scripts (all but the boot script that loads them after the first paint) until
 * `release()`: the typing before it lands in the placeholder whatever the machine's speed, and the
 * typing after it spans the takeover.
 */
function holdTheApp(page: Page) {
  return holdRequests(page, (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js') && !url.pathname.startsWith('/assets/boot-'));
}

/** The boot script has run: from now an Enter in the placeholder is marked, not a new line. */
async function bootScriptRan(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydration === 'pending' || !document.querySelector('[data-app-placeholder]'));
}

const onboardingSeen = (page: Page) => page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));

/** /app with the app's scripts held, the boot script run and the placeholder's input clicked: returns `release`. */
async function inThePlaceholder(page: Page, prepare: (page: Page) => Promise<unknown> = onboardingSeen) {
  await prepare(page);
  const release = await holdTheApp(page);
  await page.goto('/app', { waitUntil: 'commit' });
  await bootScriptRan(page);
  await page.locator('[data-app-placeholder] textarea').click();
  return release;
}

/** The placeholder's input, or null once the app has replaced the placeholder. */
function placeholderValue(page: Page) {
  return page.evaluate(() => document.querySelector<HTMLTextAreaElement>('[data-app-placeholder] textarea')?.value ?? null);
}

test('keys typed into /app’s input from its first paint, on a CPU slowed 4x, are all in the message sent', async ({ page }) => {
  await slowPhone(page);
  const release = await holdTheApp(page);
  await page.goto('/app', { waitUntil: 'commit' });
  // The first paint: the placeholder's input, before the app has run.
  const early = page.locator('[data-app-placeholder] textarea');
  await early.click();
  await page.keyboard.type('week', { delay: 40 });
  // Typed into the placeholder, not into the app's input: this is what the test is about.
  expect(await placeholderValue(page)).toBe('week');
  // The caret moved, then more typed, slowly: the app takes over somewhere in here.
  await page.keyboard.press('Home');
  release();
  await page.keyboard.type('Plan my ', { delay: 40 });
  await page.keyboard.press('End');
  await page.keyboard.type(' with the team, then the board review', { delay: 40 });

  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0, { timeout: 60_000 });
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('Plan my week with the team, then the board review');
  // The caret is where the typing left it: the next key goes at the end.
  await page.keyboard.type('.');
  await page.keyboard.press('Enter');
  await expect(userMessages(page).last()).toContainText('Plan my week with the team, then the board review.', { timeout: 30_000 });
  expect(await sentMessages(page)).toEqual(['Plan my week with the team, then the board review.']);
  await expect(messageInput(page)).toHaveValue('');
});

test('a message typed and sent with Enter in /app’s placeholder, on a CPU slowed 4x, is sent once the app has taken over', async ({ page }) => {
  const release = await inThePlaceholder(page, slowPhone);
  await page.keyboard.type('Hi coach');
  await page.keyboard.press('Enter');
  // Enter in the placeholder starts no new line: it sends when the app has taken over.
  expect(await placeholderValue(page)).toBe('Hi coach');
  release();

  await expect(userMessages(page).last()).toContainText('Hi coach', { timeout: 60_000 });
  expect(await sentMessages(page)).toEqual(['Hi coach']);
  await expect(messageInput(page)).toHaveValue('');
});

test('an Enter in the placeholder sends only the text it was pressed on: not on blank text, not text typed after it', async ({ page }) => {
  const release = await inThePlaceholder(page);
  // Enter on blank text, as the app's input does, sends nothing; then a sentence, not sent.
  await page.keyboard.press('Enter');
  await page.keyboard.type('Not finished');
  expect(await placeholderValue(page)).toBe('Not finished');
  release();

  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0, { timeout: 60_000 });
  await expect(input).toHaveValue('Not finished');
  await expect(page.getByRole('button', { name: chatTexts.send })).toBeEnabled();
  await expect(userMessages(page)).toHaveCount(0);
});

test('an Enter in the placeholder followed by more typing sends nothing: the text is no longer what it meant to send', async ({ page }) => {
  const release = await inThePlaceholder(page);
  await page.keyboard.type('Hi coach');
  await page.keyboard.press('Enter');
  await page.keyboard.type(', one more thing');
  release();

  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0, { timeout: 60_000 });
  await expect(input).toHaveValue('Hi coach, one more thing');
  await expect(userMessages(page)).toHaveCount(0);
});

test('keys typed into the placeholder of a stored chat (/app?chat=1), on a CPU slowed 4x, stay in its input', async ({ page }) => {
  await slowPhone(page);
  // A stored chat's page runs the app at once (no boot script): its data calls are held until the
  // typing below has begun, so that it does begin in the placeholder.
  const release = await holdRequests(page, (url) => url.pathname.includes('/trpc/'));
  await page.goto('/app?chat=1', { waitUntil: 'commit' });
  await page.locator('[data-app-placeholder] textarea').click();
  await page.keyboard.type('about the OKRs');
  expect(await placeholderValue(page)).toBe('about the OKRs');
  await page.keyboard.press('Home');
  release();
  await page.keyboard.type('A question ', { delay: 40 });

  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0, { timeout: 60_000 });
  await expect(userMessages(page).first()).toContainText('Help me draft OKRs for my team next quarter.', { timeout: 30_000 });
  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('A question about the OKRs');
  // The caret after "A question ": the next key goes there.
  await page.keyboard.type('!');
  await expect(input).toHaveValue('A question !about the OKRs');
});

test('on a first visit the welcome dialog waits for typing begun in the placeholder to pause, and takes no key of it', async ({ page }) => {
  // No hasSeenOnboarding: the dialog is due as soon as the app has taken over. It takes the focus,
  // so opened in the middle of a sentence it took the rest of it.
  const release = await inThePlaceholder(page, async () => undefined);
  await page.keyboard.type('Help me get ready');
  release();
  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0, { timeout: 60_000 });
  // Typing on, a key about every 100 ms for over three seconds, across the moment the dialog was due.
  await page.keyboard.type(' for the quarterly planning meeting', { delay: 90 });
  await expect(input).toHaveValue('Help me get ready for the quarterly planning meeting');
  await expect(page.getByRole('dialog', { name: onboardingTexts.title })).toHaveCount(0);
  // Once the typing pauses, the dialog opens; closed, it gives the focus back to the input, text kept.
  const dialog = page.getByRole('dialog', { name: onboardingTexts.title });
  await expect(dialog).toBeVisible({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('Help me get ready for the quarterly planning meeting');
});
