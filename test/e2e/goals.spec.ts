import { expect, test, type Page } from '@playwright/test';
import { chatTexts, goalTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, messageInput, replyFinished, say, userMessages } from './support/chatPage.js';

// Goals as a person uses them: a SMART goal finished with the offline coach is saved
// from the chat, shows on /goals, takes two check-ins that move its chart, and is marked done.
// Each test signs up a fresh account: the demo user is shared with every other test.

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const username = `goals${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  const res = await page.request.post('/api/auth/register', {
    data: { username, password: 'goals-secret-1', fullName: 'Gale Goals' },
    headers: { origin: baseURL ?? '' },
  });
  expect(res.status()).toBe(201);
}

/** A toast with this title (the one before may still be leaving when the next one comes). */
function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title }).last();
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('a SMART goal from the coach is saved, checked in twice, charted and marked done', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await signUpFreshUser(page, baseURL);
  await page.goto('/app?new=true');

  // The offline coach's SMART flow: goal, measure, achievable, relevant, deadline.
  await say(page, 'Help me set a SMART goal');
  await say(page, 'Cut the time new engineers need to ship their first change');
  await say(page, 'from 6 weeks to 3 weeks');
  await say(page, 'I can spend 2 hours a week on it and my manager supports it');
  await say(page, 'It lets the team take on the new product line this year');
  await say(page, 'within 8 weeks');
  const result = coachMessages(page).last();
  await expect(result).toContainText('Here is your SMART goal');

  // Only the result offers 'Save as goal'.
  await expect(conversation(page).getByRole('button', { name: goalTexts.saveAsGoal })).toHaveCount(1);
  await result.getByRole('button', { name: goalTexts.saveAsGoal }).click();
  const form = page.getByRole('dialog', { name: goalTexts.saveAsGoal });
  await expect(form.getByLabel(goalTexts.titleLabel)).toHaveValue(/Cut the time new engineers need to ship their first change/);
  await expect(form.getByRole('textbox', { name: goalTexts.keyResultTitle })).toHaveValue('Cut the time new engineers need to ship their first change');
  await expect(form.getByRole('textbox', { name: goalTexts.startLabel })).toHaveValue('6');
  await expect(form.getByRole('textbox', { name: goalTexts.targetLabel })).toHaveValue('3');
  await expect(form.getByRole('textbox', { name: goalTexts.unitLabel })).toHaveValue('weeks');
  const title = await form.getByLabel(goalTexts.titleLabel).inputValue();
  await form.getByRole('button', { name: goalTexts.save }).click();
  await expect(toast(page, goalTexts.saved)).toBeVisible();
  await expect(form).toBeHidden();

  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: goalTexts.sidebarItem }).click();
  await expect(page.getByRole('heading', { name: goalTexts.pageTitle, level: 1 })).toBeVisible();
  const card = page.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  await expect(card.getByText('SMART', { exact: true })).toBeVisible();
  await expect(card.getByText(goalTexts.noCheckIns)).toBeVisible();

  const keyResult = 'Cut the time new engineers need to ship their first change';
  for (const value of ['5', '4']) {
    await card.getByRole('button', { name: goalTexts.checkInTitle(keyResult) }).click();
    const dialog = page.getByRole('dialog', { name: goalTexts.checkInTitle(keyResult) });
    await dialog.getByRole('textbox', { name: goalTexts.valueLabel }).fill(value);
    await dialog.getByRole('textbox', { name: goalTexts.noteLabel }).fill(`Now at ${value} weeks`);
    await dialog.getByRole('button', { name: goalTexts.checkIn, exact: true }).click();
    await expect(toast(page, goalTexts.checkedIn)).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  // From 6 to 3 weeks, now at 4: two thirds of the way; the chart has the start and both check-ins.
  await expect(card.getByRole('progressbar', { name: goalTexts.progressOf(keyResult), exact: true })).toHaveAttribute('aria-valuenow', '67');
  const chart = card.getByRole('figure', { name: goalTexts.historyOf(title) });
  await expect(chart).toBeVisible();
  await expect(chart.getByRole('row')).toHaveCount(3);
  await expect(chart.getByRole('cell', { name: '67%' })).toBeVisible();
  await expect(card.getByText(goalTexts.noCheckIns)).toHaveCount(0);

  await card.getByRole('button', { name: goalTexts.markDone }).click();
  await expect(toast(page, goalTexts.markedDone)).toBeVisible();
  const doneSection = page.getByRole('region', { name: goalTexts.doneGoals });
  await expect(doneSection.getByRole('article', { name: title })).toBeVisible();
  await expect(card.getByText(goalTexts.status.done, { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: goalTexts.reopen })).toBeVisible();
});

test('a new account sees how to set a first goal with the coach', async ({ page, baseURL }) => {
  await signUpFreshUser(page, baseURL);
  await page.goto('/goals');

  await expect(page.getByRole('heading', { name: goalTexts.emptyTitle })).toBeVisible();
  await expect(page.getByText(goalTexts.emptyBody)).toBeVisible();
  const start = page.getByRole('link', { name: goalTexts.startWithCoach });
  await expect(start).toHaveAttribute('href', '/app?new=true');
  await start.click();
  await expect(page).toHaveURL(/\/app\?new=true/);
});
