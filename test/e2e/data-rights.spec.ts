import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { privacyTexts as texts, settingsTexts } from '../../src/shared/texts/index.js';
import { messageInput } from './support/chatPage.js';

// Settings, Privacy tab: 'Export my data' and 'Delete my account' (demo server).
test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

async function signUp(page: import('@playwright/test').Page, baseURL: string | undefined) {
  const username = `dr${Date.now().toString(36)}${Math.floor(Math.random() * 100000)}`;
  const res = await page.request.post('/api/auth/register', {
    data: { username, password: 'rights-secret', fullName: 'Dana Rights', jobTitle: 'Analyst', company: 'Acme' },
    headers: { origin: baseURL ?? '' },
  });
  expect(res.status()).toBe(201);
  return username;
}

test('Export my data downloads a JSON file and a Markdown file', async ({ page, baseURL }) => {
  await signUp(page, baseURL);
  await page.goto('/settings?tab=privacy');
  await expect(page.getByRole('tab', { name: settingsTexts.tabs.privacy })).toHaveAttribute('aria-selected', 'true');

  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: texts.exportMyData }).click()]);
  expect(json.suggestedFilename()).toMatch(/^ai-coach-export-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect(data.account).toMatchObject({ fullName: 'Dana Rights', jobTitle: 'Analyst' });
  expect(JSON.stringify(data)).not.toMatch(/password/i);

  await page.getByText(texts.formatMarkdown, { exact: true }).click();
  const [markdown] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: texts.exportMyData }).click()]);
  expect(markdown.suggestedFilename()).toMatch(/\.md$/);
  const text = fs.readFileSync(await markdown.path(), 'utf8');
  expect(text).toContain('# AI Coach data export');
  expect(text).toContain('Dana Rights');
});

test('Delete my account needs DELETE typed, then removes the account and lands on /', async ({ page, baseURL }) => {
  const username = await signUp(page, baseURL);
  await page.goto('/settings?tab=privacy');
  await page.getByRole('button', { name: texts.deleteMyAccount }).click();
  const dialog = page.getByRole('dialog', { name: texts.deleteDialogTitle });
  const confirm = dialog.getByRole('button', { name: texts.deleteMyAccount });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: texts.deleteConfirmLabel }).fill('delete');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: texts.deleteConfirmLabel }).fill('DELETE');
  await confirm.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(texts.deletedTitle)).toBeVisible();
  const login = await page.request.post('/api/auth/login', { data: { username, password: 'rights-secret' }, headers: { origin: baseURL ?? '' } });
  expect(login.status()).toBe(401);
});

test('the shared demo account cannot be deleted, and says so', async ({ page }) => {
  await page.goto('/settings?tab=privacy');
  await page.getByRole('button', { name: texts.deleteMyAccount }).click();
  const dialog = page.getByRole('dialog', { name: texts.deleteDialogTitle });
  await dialog.getByRole('textbox', { name: texts.deleteConfirmLabel }).fill('DELETE');
  await dialog.getByRole('button', { name: texts.deleteMyAccount }).click();
  await expect(dialog.getByRole('alert')).toContainText(texts.demoAccountNotDeletable);
  await dialog.getByRole('button', { name: texts.cancel }).click();
  await expect(page).toHaveURL(/\/settings/);
});

test('with Store chat history off, a conversation is gone once the user leaves it', async ({ page, baseURL }) => {
  await signUp(page, baseURL);
  await page.goto('/settings?tab=privacy');
  await page.getByRole('switch', { name: settingsTexts.storeChatHistory }).uncheck({ force: true });
  await page.getByRole('button', { name: settingsTexts.savePrivacy }).click();
  await expect(page.getByText(settingsTexts.privacySavedTitle)).toBeVisible();

  await page.goto('/app?new=true');
  await messageInput(page).fill('A private thought about my manager');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/chat=\d+/);
  const recent = page.getByRole('region', { name: 'Recent Chats' });
  await expect(recent.getByText('A private thought about my ma')).toBeVisible();

  await page.getByRole('link', { name: 'User Knowledge Base' }).click();
  await expect(page).toHaveURL(/\/knowledge-base$/);
  await expect(recent.getByText('A private thought about my ma')).toBeHidden();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Recent Chats' }).getByText('No chats yet')).toBeVisible();
});
