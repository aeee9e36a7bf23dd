import { expect, test, type Page } from '@playwright/test';
import { knowledgeBaseTexts as texts } from '../../src/shared/texts/index.js';

// /knowledge-base (the product spec's screens) with a fresh account per test (the demo user is shared).
let counter = 0;
test.beforeEach(async ({ page, context, baseURL }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  counter += 1;
  const res = await page.request.post('/api/auth/register', {
    data: {
      username: `kb${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`,
      password: 'kb-secret-1',
      fullName: 'Kim Base',
      jobTitle: 'Team Lead',
      company: 'Initech',
    },
    headers: { origin: baseURL ?? '' },
  });
  expect(res.status()).toBe(201);
});

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: false }).first();
const tab = (page: Page, name: string) => page.getByRole('tab', { name });
const saveButton = (page: Page) => page.getByRole('button', { name: texts.save });

test('the sidebar leads to the knowledge base, which starts from the profile with the switch off', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('link', { name: 'User Knowledge Base' }).click();
  await expect(page).toHaveURL(/\/knowledge-base$/);
  await expect(page.getByRole('heading', { name: texts.title, level: 1 })).toBeVisible();
  for (const name of Object.values(texts.tabs)) await expect(tab(page, name)).toBeVisible();
  await expect(page.getByRole('switch', { name: texts.useKnowledgeBase })).not.toBeChecked();
  await expect(textbox(page, texts.fullName)).toHaveValue('Kim Base');
  await expect(textbox(page, texts.jobTitle)).toHaveValue('Team Lead');
  await expect(textbox(page, texts.company)).toHaveValue('Initech');
  await expect(page.getByRole('heading', { name: texts.summaryTitle })).toBeVisible();
  await expect(page.getByText(texts.summaryEmpty)).toBeVisible();
});

test('shows the validation messages and opens the tab of the first error', async ({ page }) => {
  await page.goto('/knowledge-base');
  await textbox(page, texts.fullName).fill('K');
  await textbox(page, texts.jobTitle).fill('');
  await textbox(page, texts.company).fill('');
  await saveButton(page).click();
  await expect(page.getByText(texts.fullNameMin)).toBeVisible();
  await expect(page.getByText(texts.jobTitleRequired)).toBeVisible();
  await expect(page.getByText(texts.companyRequired)).toBeVisible();

  await textbox(page, texts.fullName).fill('Kim Base');
  await textbox(page, texts.jobTitle).fill('Team Lead');
  await textbox(page, texts.company).fill('Initech');
  await saveButton(page).click();
  // The tone is on the Communication Style tab: the save opens it and says what is missing.
  await expect(tab(page, texts.tabs.communication)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(texts.emailToneRequired)).toBeVisible();
  await expect(page.getByText(texts.saved, { exact: true })).toBeHidden();
});

test('each tab saves, the Saved badge shows for 3 s, and everything is kept on the server and in this browser', async ({ page }) => {
  await page.goto('/knowledge-base');
  await page.getByRole('switch', { name: texts.useKnowledgeBase }).check({ force: true });

  await tab(page, texts.tabs.role).click();
  await textbox(page, texts.department).fill('Platform');
  await textbox(page, texts.manager).fill('Priya Shah');
  await page.getByRole('textbox', { name: texts.directReports }).fill('4');
  await textbox(page, texts.team).fill('Ann Lee, Bob Stone, Cy Park');
  await textbox(page, texts.stakeholders).fill('Tom Lee - Head of Sales, Mia Chen - CFO');

  await tab(page, texts.tabs.communication).click();
  await page.getByRole('combobox', { name: texts.emailTone }).click();
  await page.getByRole('option', { name: 'Assertive' }).click();
  await textbox(page, texts.signatureStyle).fill('Best, Kim');
  await textbox(page, texts.writingExamples).fill('Hi all, shipping Friday.');

  await tab(page, texts.tabs.notes).click();
  await textbox(page, texts.coachNotes).fill('Practise saying no.');

  // The badge cannot show before the click: from the click until it is gone is at least its 3 s,
  // however late this test notices it appear.
  const clickedAt = Date.now();
  await saveButton(page).click();
  const badge = page.getByRole('status').filter({ hasText: texts.saved });
  await expect(badge).toBeVisible();
  await expect(badge).toBeHidden({ timeout: 8_000 });
  expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(3_000);

  const summary = page.getByRole('region', { name: texts.summaryTitle });
  await expect(summary.getByText(texts.summaryInUse)).toBeVisible();
  await expect(summary.getByText(texts.summaryTeam(3))).toBeVisible();
  await expect(summary.getByText(texts.summaryStakeholders(2))).toBeVisible();
  await expect(summary.getByText('Assertive')).toBeVisible();

  const local = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user_knowledge_base') ?? 'null'));
  expect(local).toMatchObject({ useKnowledgeBase: true, department: 'Platform', team: 'Ann Lee, Bob Stone, Cy Park', emailTone: 'Assertive', coachNotes: 'Practise saying no.' });

  // Another device: no local copy, the server's copy comes back.
  await page.evaluate(() => window.localStorage.removeItem('user_knowledge_base'));
  await page.reload();
  await expect(page.getByRole('switch', { name: texts.useKnowledgeBase })).toBeChecked();
  await tab(page, texts.tabs.role).click();
  await expect(textbox(page, texts.manager)).toHaveValue('Priya Shah');
  await expect(page.getByRole('textbox', { name: texts.directReports })).toHaveValue('4');
  await tab(page, texts.tabs.communication).click();
  await expect(page.getByRole('combobox', { name: texts.emailTone })).toHaveValue('Assertive');
  await tab(page, texts.tabs.notes).click();
  await expect(textbox(page, texts.coachNotes)).toHaveValue('Practise saying no.');
});

test('onboarding answers fill the knowledge base', async ({ page, context }) => {
  await context.addInitScript(() => window.localStorage.removeItem('hasSeenOnboarding'));
  await page.goto('/app');
  const dialog = page.getByRole('dialog', { name: 'Welcome to AI Coach' });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('textbox', { name: 'Job title' }).fill('Head of Support');
  await dialog.getByRole('textbox', { name: 'Company' }).fill('Umbrella');
  await dialog.getByRole('textbox', { name: /Manager/ }).fill('Ada Wong');
  await dialog.getByRole('textbox', { name: /direct reports/i }).fill('7');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: 'User Knowledge Base' }).click();
  await expect(textbox(page, texts.jobTitle)).toHaveValue('Head of Support');
  await expect(textbox(page, texts.company)).toHaveValue('Umbrella');
  await tab(page, texts.tabs.role).click();
  await expect(textbox(page, texts.manager)).toHaveValue('Ada Wong');
  await expect(page.getByRole('textbox', { name: texts.directReports })).toHaveValue('7');
});
