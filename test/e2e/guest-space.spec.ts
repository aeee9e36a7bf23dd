import { expect, test, type Browser, type Page } from '@playwright/test';
import { authTexts, chatTexts } from '../../src/shared/texts/index.js';
import { coachMessages, messageInput, replyFinished, userMessages } from './support/chatPage.js';

// In demo mode every visitor who writes gets a private guest space. Two browsers (two
// contexts, no shared cookies) never see each other's chats, and a guest is shown what it needs
// (an account) where an integration would be, with a way to create one.

// Two browsers and several screens each, on a shared machine.
test.setTimeout(180_000);

const sampleTitles = ['Quarterly OKR planning', 'Preparing a difficult conversation', 'Weekly team meeting agenda', 'Career growth with GROW'];

async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  return context.newPage();
}

function recentChats(page: Page) {
  return page.getByRole('region', { name: chatTexts.recentChats });
}

test('two visitors in demo mode each get a private space: neither sees the other’s chats', async ({ browser }) => {
  // Each page in front while it is used: a page in the background paints nothing (no animation frames).
  const alice = await visitor(browser);
  await alice.goto('/app');
  for (const title of sampleTitles) await expect(recentChats(alice).getByText(title, { exact: true })).toBeVisible({ timeout: 30_000 });
  // Alice's first write makes her guest space; the coach's reply still arrives live (the socket
  // reconnected with her new session).
  await messageInput(alice).fill('my private divorce notes');
  await messageInput(alice).press('Enter');
  await expect(userMessages(alice).last()).toContainText('my private divorce notes');
  await replyFinished(alice);
  await expect(coachMessages(alice).last()).not.toBeEmpty();
  await expect(recentChats(alice).getByText(/my private divorce notes/)).toBeVisible();
  const aliceCookies = await alice.context().cookies();
  expect(aliceCookies.find((c) => c.name === 'ai_coach_session')?.httpOnly).toBe(true);

  // Bob, on another "machine": the samples, never Alice's chat; then a space of his own.
  const bob = await visitor(browser);
  await bob.bringToFront();
  await bob.goto('/app');
  for (const title of sampleTitles) await expect(recentChats(bob).getByText(title, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(recentChats(bob).getByText(/my private divorce notes/)).toHaveCount(0);
  // Bob writes in a sample chat: it becomes his copy, and Alice's sample stays as it was.
  await recentChats(bob).getByText('Quarterly OKR planning', { exact: true }).click();
  // The sample open before Bob types: typed into the new conversation's composer while the chat
  // was still opening, the text went with that composer (a loaded CI machine took long enough).
  await expect(bob).toHaveURL(/chat=\d+/);
  await expect(userMessages(bob).first()).toContainText('Help me draft OKRs for my team next quarter.');
  await messageInput(bob).fill('bob was here');
  await messageInput(bob).press('Enter');
  await expect(userMessages(bob).last()).toContainText('bob was here');
  await replyFinished(bob);
  await expect(bob).toHaveURL(/chat=\d+/);
  await bob.reload();
  await expect(userMessages(bob).last()).toContainText('bob was here', { timeout: 30_000 });
  await expect(recentChats(bob).getByText(/my private divorce notes/)).toHaveCount(0);

  await alice.bringToFront();
  await alice.reload();
  await expect(recentChats(alice).getByText(/my private divorce notes/)).toBeVisible({ timeout: 30_000 });
  await recentChats(alice).getByText('Quarterly OKR planning', { exact: true }).click();
  await expect(userMessages(alice).first()).toBeVisible();
  await expect(userMessages(alice).filter({ hasText: 'bob was here' })).toHaveCount(0);

  await alice.context().close();
  await bob.context().close();
});

test('a guest sees the register prompt on the Microsoft, phone and API key screens, never a failure', async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto('/integrations');
  await expect(page.getByText(authTexts.accountRequiredFor.microsoft).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: authTexts.createAccount }).first()).toBeVisible();

  await page.goto('/phone-calls');
  await expect(page.getByText(authTexts.accountRequiredFor.calls).first()).toBeVisible();

  await page.goto('/microsoft-manual-auth');
  await expect(page.getByText(authTexts.accountRequiredFor.microsoft).first()).toBeVisible();

  await page.goto('/settings');
  await expect(page.getByText(authTexts.accountRequiredFor.apiKeys)).toBeVisible();
  await expect(page.getByRole('textbox', { name: /phone/i })).toBeDisabled();
  // The button opens registration: creating the account keeps the space and lifts the prompt.
  await page.getByRole('button', { name: authTexts.createAccount }).last().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('tab', { name: /create account/i })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await page.context().close();
});
