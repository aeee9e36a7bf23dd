import { expect, test, type Page } from '@playwright/test';
import { writingStyleTexts as texts } from '../../src/shared/texts/index.js';
import { coachMessages, messageInput } from './support/chatPage.js';

// The writing style page and the chat's style panel for a user without a Microsoft mail
// connection: nothing can be analysed, and the product says why.

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const account = { username: `wsa${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`, password: 'style-secret', fullName: 'Riley Writer' };
  const res = await page.request.post('/api/auth/register', { data: account, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await signUpFreshUser(page, baseURL);
});

test('the sidebar leads to the page, which offers a first analysis', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Writing Style Analysis' }).click();

  await expect(page).toHaveURL(/\/writing-style-analysis$/);
  await expect(page.getByRole('heading', { level: 1, name: texts.pageTitle })).toBeVisible();
  await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();
  await expect(page.getByText(texts.howItWorksTitle)).toBeVisible();
  await expect(page.getByRole('button', { name: texts.startAnalysis })).toBeVisible();
  await expect(page.getByRole('button', { name: texts.analyze })).toBeVisible();
  await expect(page.getByRole('heading', { name: texts.howItsUsedTitle })).toBeVisible();
  for (const item of texts.usedFor) await expect(page.getByText(item.title, { exact: true })).toBeVisible();
});

test('without a Microsoft mail connection the analysis says the sent emails cannot be read', async ({ page }) => {
  await page.goto('/writing-style-analysis');

  await page.getByRole('button', { name: texts.startAnalysis }).click();

  const toast = page.getByRole('alert').filter({ hasText: texts.emailErrorTitle });
  await expect(toast).toContainText(texts.notConnected);
  await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('writing_style_data'))).toBeNull();
});

test('the chat shows the style panel when a message asks about writing style', async ({ page }) => {
  await page.goto('/app?new=true');
  await messageInput(page).fill('Can you look at my writing style?');
  await messageInput(page).press('Enter');
  await expect(coachMessages(page).last()).toBeVisible();

  const panel = page.getByRole('region', { name: texts.panelTitle });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(texts.panelNoProfile)).toBeVisible();
  await expect(panel.getByRole('button', { name: texts.analyze })).toBeVisible();
});

test('the chat shows no style panel for other conversations', async ({ page }) => {
  await page.goto('/app?new=true');
  await messageInput(page).fill('Help me plan my week');
  await messageInput(page).press('Enter');
  await expect(coachMessages(page).last()).toBeVisible();

  await expect(page.getByRole('region', { name: texts.panelTitle })).toHaveCount(0);
});
