import { expect, test, type Page } from '@playwright/test';
import { chatTexts, commonTexts, goalTexts, meetingsTexts, memoryTexts, nudgesTexts, rehearsalTexts } from '../../src/shared/texts/index.js';
import { coachMessages, replyFinished } from './support/chatPage.js';

// A demo visitor sees a week in the product (sample goals, memories and meetings, each
// marked as a sample), prepares a sample meeting with the offline coach, and its agenda actions
// say plainly that nothing is sent. Screenshots of each screen go to the test's output.

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title }).last();
}

test('the goals and memory pages show the sample data, marked as samples', async ({ page }, testInfo) => {
  await page.goto('/goals');
  await expect(page.getByRole('heading', { level: 1, name: goalTexts.pageTitle })).toBeVisible();
  const goals = page.getByRole('article');
  await expect(goals).toHaveCount(2);
  for (const goal of await goals.all()) await expect(goal.getByText(commonTexts.sampleBadge, { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('goals.png'), fullPage: true });

  await page.goto('/memory');
  await expect(page.getByRole('heading', { level: 1, name: memoryTexts.pageTitle })).toBeVisible();
  await expect(page.getByText(/Send Priya written feedback/)).toBeVisible();
  await expect(page.getByText(commonTexts.sampleBadge, { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('memory.png'), fullPage: true });
});

test('a sample meeting is prepared with the coach, and its agenda actions send nothing', async ({ page }, testInfo) => {
  await page.goto('/meetings');
  await expect(page.getByText(meetingsTexts.sampleNoticeTitle)).toBeVisible();
  await expect(page.getByRole('button', { name: meetingsTexts.connectButton })).toHaveCount(0);
  const first = page.getByRole('article').first();
  await expect(first.getByText(commonTexts.sampleBadge, { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('meetings.png'), fullPage: true });

  await first.getByRole('button', { name: new RegExp(`^${meetingsTexts.prepare}:`) }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await replyFinished(page);
  const agenda = coachMessages(page).last();
  await expect(agenda).toContainText(/agenda/i);

  await agenda.getByRole('button', { name: chatTexts.agendaButtons[0] }).click();
  const confirm = page.getByRole('dialog', { name: meetingsTexts.confirmSaveTitle });
  await expect(confirm.getByText(meetingsTexts.sampleConfirmBody)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('sample-confirm.png') });
  await confirm.getByRole('button', { name: meetingsTexts.confirm }).click();
  await expect(toast(page, meetingsTexts.sampleActionTitle)).toContainText(meetingsTexts.sampleNotSaved);

  await agenda.getByRole('button', { name: chatTexts.agendaButtons[1] }).click();
  await page.getByRole('dialog', { name: meetingsTexts.confirmEmailTitle }).getByRole('button', { name: meetingsTexts.confirm }).click();
  await expect(toast(page, meetingsTexts.sampleActionTitle)).toContainText(meetingsTexts.sampleNotEmailed);

  // Back on the page: the meeting opens its prep, and no agenda is marked saved.
  await page.goto('/meetings');
  const prepared = page.getByRole('article').first();
  await expect(prepared.getByRole('button', { name: new RegExp(`^${meetingsTexts.openPrep}:`) })).toBeVisible();
  await expect(prepared.getByText(meetingsTexts.agendaSaved)).toHaveCount(0);
});

test('the example rehearsal is listed as a sample, its report page opens, and the example review is in the history', async ({ page }, testInfo) => {
  await page.goto('/rehearsals');
  await expect(page.getByRole('heading', { level: 1, name: rehearsalTexts.pageTitle })).toBeVisible();
  const example = page.getByRole('listitem', { name: rehearsalTexts.reportTitle('Priya Shah') });
  await expect(example.getByText(commonTexts.sampleBadge, { exact: true })).toBeVisible();
  await expect(example.getByText(rehearsalTexts.goalMet.yes, { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('rehearsals.png'), fullPage: true });

  await example.getByRole('button', { name: rehearsalTexts.viewReport }).click();
  await expect(page).toHaveURL(/\/rehearsals\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: rehearsalTexts.reportTitle('Priya Shah') })).toBeVisible();
  await expect(page.getByText(commonTexts.sampleBadge, { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: rehearsalTexts.talkShareLabel })).toBeVisible();
  await expect(page.getByText(/basically/).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('rehearsal-report.png'), fullPage: true });

  await page.goto('/nudges');
  const run = page.getByTestId('nudge-run');
  await expect(run).toHaveCount(1);
  await expect(run.getByText(commonTexts.sampleBadge, { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('nudges.png'), fullPage: true });
  await run.getByRole('button', { name: nudgesTexts.openChat }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await expect(coachMessages(page).filter({ hasText: nudgesTexts.reviewFocusLine('').trim() })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('weekly-review.png') });
});
