import { expect, test, type Page } from '@playwright/test';
import { memoryTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, say } from './support/chatPage.js';

// Memory and search as a person uses them: 'Remember that …' in a chat shows 'Memory
// updated' with Undo, the Memory page groups, edits, deletes, switches off and forgets everything,
// and Ctrl+K finds a message in any chat and opens the chat at it.

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const username = `memory${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  const res = await page.request.post('/api/auth/register', {
    data: { username, password: 'memory-secret-1', fullName: 'Mia Memory' },
    headers: { origin: baseURL ?? '' },
  });
  expect(res.status()).toBe(201);
}

function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title }).last();
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('the coach remembers on request, with Undo, and the Memory page manages it all', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signUpFreshUser(page, baseURL);
  await page.goto('/app?new=true');

  const reply = await say(page, 'Remember that my skip-level is Dana Lee');
  await expect(reply).toContainText('I’ll remember that: “My skip-level is Dana Lee”');
  const note = conversation(page).getByRole('note', { name: memoryTexts.memoryUpdated });
  await expect(note).toHaveCount(1);
  await note.getByRole('button', { name: memoryTexts.undo }).click();
  await expect(toast(page, memoryTexts.undone)).toBeVisible();
  await expect(note).toHaveCount(0);

  await say(page, 'Please remember I prefer written feedback before meetings');
  await expect(coachMessages(page).last()).toContainText('I’ll remember that');
  await conversation(page).getByRole('note', { name: memoryTexts.memoryUpdated }).getByRole('link', { name: memoryTexts.memoryUpdated }).click();

  await expect(page.getByRole('heading', { name: memoryTexts.pageTitle, level: 1 })).toBeVisible();
  const preferences = page.getByRole('region', { name: memoryTexts.kinds.preference });
  await expect(preferences).toContainText('I prefer written feedback before meetings');
  await expect(page.getByText('My skip-level is Dana Lee')).toHaveCount(0);

  // Add one by hand, as a person.
  await page.getByRole('button', { name: memoryTexts.addMemory }).click();
  const form = page.getByRole('dialog', { name: memoryTexts.addMemory });
  await form.getByLabel(memoryTexts.newMemoryLabel).fill('My manager is Priya');
  await form.getByRole('combobox', { name: memoryTexts.kindLabel }).click();
  await page.getByRole('option', { name: memoryTexts.kindSingular.person }).click();
  await form.getByRole('button', { name: memoryTexts.save }).click();
  await expect(page.getByRole('region', { name: memoryTexts.kinds.person })).toContainText('My manager is Priya');

  // Edit it.
  await page.getByRole('button', { name: memoryTexts.editMemoryNamed('My manager is Priya') }).click();
  const edit = page.getByRole('dialog', { name: memoryTexts.editMemory });
  await edit.getByLabel(memoryTexts.newMemoryLabel).fill('My manager is Priya Shah');
  await edit.getByRole('button', { name: memoryTexts.save }).click();
  await expect(page.getByRole('region', { name: memoryTexts.kinds.person })).toContainText('My manager is Priya Shah');

  // Delete one.
  await page.getByRole('button', { name: memoryTexts.deleteMemory('My manager is Priya Shah') }).click();
  await expect(toast(page, memoryTexts.deleted)).toBeVisible();
  await expect(page.getByRole('region', { name: memoryTexts.kinds.person })).toHaveCount(0);

  // The switch, kept across a reload.
  const toggle = page.getByRole('switch', { name: memoryTexts.switchLabel });
  await expect(toggle).toBeChecked();
  await toggle.click({ force: true });
  await expect(page.getByText(memoryTexts.switchOffDescription)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: memoryTexts.switchLabel })).not.toBeChecked();

  // Forget everything, confirmed.
  await page.getByRole('button', { name: memoryTexts.forgetEverything }).click();
  const confirm = page.getByRole('dialog', { name: memoryTexts.forgetTitle });
  await confirm.getByRole('button', { name: memoryTexts.forgetConfirm }).click();
  await expect(toast(page, memoryTexts.forgotten)).toBeVisible();
  await expect(page.getByRole('heading', { name: memoryTexts.emptyTitle })).toBeVisible();

  // The sidebar and Settings lead here.
  await page.goto('/settings?tab=privacy');
  await page.getByRole('link', { name: memoryTexts.settingsLink }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/memory$/);
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: memoryTexts.sidebarItem }).click();
  await expect(page).toHaveURL(/\/memory$/);
});

test('Ctrl+K searches every chat and opens the chat at the message', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signUpFreshUser(page, baseURL);
  await page.goto('/app?new=true');
  await say(page, 'Our zebracorn launch slipped by two weeks');
  await expect(page).toHaveURL(/chat=\d+/);
  const chatId = new URL(page.url()).searchParams.get('chat');
  // A second chat, so the result has to open the first.
  await page.goto('/app?new=true');
  await say(page, 'Help me plan my week');

  await page.goto('/memory');
  await expect(page.getByRole('heading', { name: memoryTexts.pageTitle, level: 1 })).toBeVisible();
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: memoryTexts.searchTitle });
  await expect(dialog).toBeVisible();
  const input = dialog.getByRole('combobox', { name: memoryTexts.searchTitle });
  await expect(input).toBeFocused();
  await input.fill('zebracorn');
  const option = dialog.getByRole('option').first();
  await expect(option).toContainText('launch slipped');
  await expect(option.locator('mark')).toHaveText(/zebracorn/i);
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await input.press('Enter');

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`chat=${chatId}.*message=\\d+`));
  const found = conversation(page).locator('[data-found]');
  // The user's message or the coach's reply that takes up their words: both say it.
  await expect(found).toContainText(/zebracorn launch slipped by two weeks/i, { timeout: 20_000 });
  await expect(found).toBeInViewport();
});
