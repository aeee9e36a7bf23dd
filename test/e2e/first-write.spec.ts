import { expect, test, type Browser, type Page } from '@playwright/test';
import { chatTexts, goalTexts, knowledgeBaseTexts as kbTexts } from '../../src/shared/texts/index.js';
import { messageInput, replyFinished, say, userMessages } from './support/chatPage.js';

// A demo visitor's first write makes their private guest space and moves their session to it.
// It finishes on screen as it would for an account: the confirmation shows, the form
// keeps its values, the focus stays; and the samples' links keep opening the samples (the
// visitor's copies) afterwards.

test.setTimeout(120_000);

/** A new visitor: a browser of their own, no cookie. */
async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  return context.newPage();
}

async function hasSession(page: Page) {
  return (await page.context().cookies()).some((cookie) => cookie.name === 'ai_coach_session');
}

test('a visitor’s first knowledge base save shows Saved, keeps the form and the focus', async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto('/knowledge-base');
  await expect(page.getByRole('heading', { name: kbTexts.title, level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: kbTexts.tabs.notes }).click();
  const notes = page.getByRole('textbox', { name: kbTexts.coachNotes }).first();
  await notes.fill('Practise saying no before the planning week.');
  await page.getByRole('tab', { name: kbTexts.tabs.communication }).click();
  await page.getByRole('combobox', { name: kbTexts.emailTone }).click();
  await page.getByRole('option', { name: 'Assertive' }).click();
  await page.getByRole('tab', { name: kbTexts.tabs.personal }).click();
  const company = page.getByRole('textbox', { name: kbTexts.company }).first();
  await company.fill('Northwind Robotics');
  expect(await hasSession(page)).toBe(false);

  // Saved with Enter in a field, as a person typing does.
  await company.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: kbTexts.saved })).toBeVisible();
  expect(await hasSession(page)).toBe(true);
  // The same page, as it was: the tab, the values, the focus in the field.
  await expect(page.getByRole('tab', { name: kbTexts.tabs.personal })).toHaveAttribute('aria-selected', 'true');
  await expect(company).toBeFocused();
  await expect(company).toHaveValue('Northwind Robotics');
  await page.getByRole('tab', { name: kbTexts.tabs.notes }).click();
  await expect(notes).toHaveValue('Practise saying no before the planning week.');
  // And it is kept: in the visitor's own space.
  await page.reload();
  await expect(page.getByRole('textbox', { name: kbTexts.company }).first()).toHaveValue('Northwind Robotics', { timeout: 30_000 });
  await page.getByRole('tab', { name: kbTexts.tabs.notes }).click();
  await expect(page.getByRole('textbox', { name: kbTexts.coachNotes }).first()).toHaveValue('Practise saying no before the planning week.');
  await page.context().close();
});

test('a visitor’s first goal appears without a reload', async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto('/goals');
  await expect(page.getByRole('heading', { name: goalTexts.pageTitle, level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: goalTexts.newGoal }).first().click();
  const form = page.getByRole('dialog', { name: goalTexts.newGoal });
  await form.getByLabel(goalTexts.titleLabel).fill('Run a calmer planning week');
  await form.getByRole('textbox', { name: goalTexts.keyResultTitle }).fill('Planning meetings that end on time');
  await form.getByRole('textbox', { name: goalTexts.startLabel }).fill('1');
  await form.getByRole('textbox', { name: goalTexts.targetLabel }).fill('5');
  expect(await hasSession(page)).toBe(false);
  await form.getByRole('button', { name: goalTexts.save }).click();

  await expect(page.getByRole('alert').filter({ hasText: goalTexts.saved }).last()).toBeVisible();
  await expect(form).toBeHidden();
  await expect(page.getByRole('article', { name: 'Run a calmer planning week' })).toBeVisible();
  expect(await hasSession(page)).toBe(true);
  await page.context().close();
});

test('/app?chat=1 after a first write opens sample chat 1: the visitor’s copy, with what they add to it', async ({ browser }) => {
  const page = await visitor(browser);
  // The first write: a new conversation of their own.
  await page.goto('/app?new=true');
  await say(page, 'Help me plan my week');
  await expect(page).toHaveURL(/chat=\d+/);
  expect(await hasSession(page)).toBe(true);

  await page.goto('/app?chat=1');
  await expect(userMessages(page).first()).toContainText('Help me draft OKRs for my team next quarter.', { timeout: 30_000 });
  await expect(page.getByText(chatTexts.chatNotFound)).toHaveCount(0);
  await expect(page.getByRole('region', { name: chatTexts.recentChats }).getByText('Quarterly OKR planning', { exact: true })).toBeVisible();

  await messageInput(page).fill('Our team has three outcomes in mind');
  await messageInput(page).press('Enter');
  await expect(userMessages(page).last()).toContainText('Our team has three outcomes in mind');
  await replyFinished(page);
  await expect(page).toHaveURL(/chat=1(?!\d)/);
  await page.reload();
  await expect(userMessages(page).first()).toContainText('Help me draft OKRs for my team next quarter.', { timeout: 30_000 });
  await expect(userMessages(page).last()).toContainText('Our team has three outcomes in mind');

  // Another visitor's sample chat 1 is the template's, untouched.
  const other = await visitor(browser);
  await other.goto('/app?chat=1');
  await expect(userMessages(other).first()).toContainText('Help me draft OKRs for my team next quarter.', { timeout: 30_000 });
  await expect(userMessages(other).filter({ hasText: 'Our team has three outcomes in mind' })).toHaveCount(0);
  await page.context().close();
  await other.context().close();
});
