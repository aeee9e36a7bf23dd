import { expect, test } from '@playwright/test';
import { commonTexts, rehearsalTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { coachMessages, say, userMessages } from './support/chatPage.js';

// Issue 34: a demo visitor rehearses a sample meeting's conversation with the offline counterpart:
// Rehearse on the meeting card (prefilled), three turns in character, the report as a page (talk
// share bar, filler words highlighted), and 'Try again from here' on one of their turns.

test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('rehearse from a meeting, three turns, the report page, try again from here', async ({ page }, testInfo) => {
  const t = rehearsalTexts;
  await page.goto('/meetings');
  const first = page.getByRole('article').first();
  await first.getByRole('button', { name: new RegExp(`^${t.rehearse}:`) }).click();

  const dialog = page.getByRole('dialog', { name: t.dialogTitle });
  const name = await dialog.getByLabel(t.nameLabel).inputValue();
  expect(name.length).toBeGreaterThan(0);
  await expect(dialog.getByLabel(t.situationLabel)).toHaveValue(/meeting/i);
  await dialog.getByLabel(t.situationLabel).fill('The quarterly roadmap needs to drop one project to hit the launch.');
  await dialog.getByLabel(t.goalLabel).fill('agree which project to drop');
  await dialog.getByText(t.difficulties.tough, { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: t.difficulties.tough })).toBeChecked();
  await dialog.getByRole('button', { name: t.start }).click();

  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await expect(page.getByRole('region', { name: t.rehearsalBadge })).toContainText(name);
  // A voice call with the other person in the browser; no 'Call me' where phone calls are not configured.
  await expect(page.getByRole('region', { name: t.rehearsalBadge }).getByRole('button', { name: voiceTexts.startVoiceCall })).toBeVisible();
  await expect(page.getByRole('region', { name: t.rehearsalBadge }).getByRole('button', { name: t.callMe })).toHaveCount(0);
  const one = await say(page, 'Um, I want to talk about the roadmap.');
  await expect(one).toContainText(`${name}:`);
  await expect(one).toContainText(/stop you/);
  await say(page, 'Basically we need to drop one project, you know.');
  const three = await say(page, 'Can we agree to drop the reporting project?');
  await expect(three).toContainText(/Fine\./);
  // The greeting, then three replies.
  await expect(coachMessages(page)).toHaveCount(4);

  await page.getByRole('region', { name: t.rehearsalBadge }).getByRole('button', { name: t.getReport }).click();
  await expect(page).toHaveURL(/\/rehearsals\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: t.reportTitle(name) })).toBeVisible();
  const talk = page.getByRole('region', { name: t.talkShareLabel });
  await expect(talk.getByRole('progressbar').first()).toBeVisible();
  const fillers = page.getByRole('region', { name: t.fillerHeading });
  await expect(fillers.getByRole('heading')).toContainText(`${t.fillerHeading}: 3`);
  await expect(fillers.locator('mark')).toHaveText(['Um', 'Basically', 'you know']);
  await page.screenshot({ path: testInfo.outputPath('report.png'), fullPage: true });

  await page.getByRole('button', { name: t.openChat }).click();
  await expect(userMessages(page)).toHaveCount(3);
  const retryButtons = page.getByRole('button', { name: t.tryAgain });
  await expect(retryButtons).toHaveCount(3);
  await retryButtons.nth(1).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).first()).toContainText('Um, I want to talk about the roadmap.');
  await expect(coachMessages(page)).toHaveCount(2);

  await page.goto('/rehearsals');
  // Both of the visitor's own (the demo's example rehearsal, a sample, may be with the same person).
  await expect(page.getByRole('listitem').filter({ hasText: t.reportTitle(name) }).filter({ hasNotText: commonTexts.sampleBadge })).toHaveCount(2);
});
