import { expect, type Page } from '@playwright/test';
import { test } from '@playwright/test';
import { chatTexts, commonTexts, rehearsalChatTexts, rehearsalTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, replyFinished, userMessages } from './support/chatPage.js';

// A demo visitor rehearses a sample meeting's conversation with the offline counterpart: Rehearse
// on the meeting card (prefilled), the other person's scene instead of the coach's greeting, their
// own avatar and name, 'pause' stepping out of the role, one report action once there is a turn,
// the report's checks with where it went wrong, and 'Try again from here' naming the new take.

test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

const t = rehearsalTexts;
const input = (page: Page) => page.getByPlaceholder(t.composerHint);
const theirLines = (page: Page, name: string) => conversation(page).getByRole('article', { name, exact: true });

async function sayTo(page: Page, name: string, text: string) {
  await input(page).fill(text);
  await input(page).press('Enter');
  await expect(userMessages(page).last()).toContainText(text);
  await replyFinished(page);
  return conversation(page).getByRole('article').last();
}

/** Starts a rehearsal of the Q3 roadmap review, organised by Elena Rossi (VP Engineering, as the sample memory says). */
async function startFromMeeting(page: Page) {
  await page.goto('/meetings');
  const card = page.getByRole('article').filter({ hasText: 'Q3 roadmap review' }).first();
  await card.getByRole('button', { name: new RegExp(`^${t.rehearse}:`) }).click();
  const dialog = page.getByRole('dialog', { name: t.dialogTitle });
  await expect(dialog.getByLabel(t.nameLabel)).toHaveValue('Elena Rossi');
  await dialog.getByLabel(t.situationLabel).fill('The quarterly roadmap needs to drop one project to hit the launch.');
  await dialog.getByLabel(t.goalLabel).fill('agree which project to drop');
  await dialog.getByText(t.difficulties.tough, { exact: true }).click();
  await dialog.getByRole('button', { name: t.start }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
}

for (const size of [
  { label: 'desktop', viewport: { width: 1280, height: 800 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`opens as the other person's scene, in their voice (${size.label})`, async ({ page }, testInfo) => {
    await page.setViewportSize(size.viewport);
    await startFromMeeting(page);
    const scene = page.getByRole('region', { name: t.sceneLabel });
    // Who is listening (the role from memory), the situation and the difficulty; no coach greeting.
    await expect(scene).toContainText(t.sceneListening('Elena Rossi', 'VP Engineering'));
    await expect(scene).toContainText('The quarterly roadmap needs to drop one project');
    await expect(scene).toContainText(t.sceneDifficulty(t.difficulties.tough));
    await expect(page.getByText(chatTexts.greeting)).toHaveCount(0);
    await expect(page.getByPlaceholder(chatTexts.inputPlaceholder)).toHaveCount(0);
    await expect(input(page)).toBeVisible();
    // No report action before there is a turn to judge.
    const bar = page.getByRole('region', { name: t.rehearsalBadge });
    await expect(bar.getByRole('button', { name: t.getReport })).toHaveCount(0);
    await expect(bar.getByRole('button', { name: t.viewReport })).toHaveCount(0);
    const box = await scene.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(size.viewport.width);
    await page.screenshot({ path: testInfo.outputPath(`scene-${size.label}.png`) });

    const one = await sayTo(page, 'Elena Rossi', 'Um, I want to talk about the roadmap.');
    // Their own name and initials, not the coach's avatar with the name typed into the line.
    await expect(one).toHaveAccessibleName('Elena Rossi');
    await expect(one).not.toContainText('Elena Rossi:');
    await expect(one.getByText('ER', { exact: true })).toBeVisible();
    await expect(one).toContainText(/stop you/);
    await expect(coachMessages(page)).toHaveCount(0);
    // One report action now.
    await expect(bar.getByRole('button', { name: t.getReport })).toHaveCount(1);
    await expect(bar.getByRole('button', { name: t.viewReport })).toHaveCount(0);

    // 'pause' steps out of the role, once, as the coach.
    const out = await sayTo(page, 'Elena Rossi', 'pause');
    await expect(out).toHaveAccessibleName(chatTexts.speakerCoach);
    await expect(out).toContainText(t.stepOutMarker);
    await page.screenshot({ path: testInfo.outputPath(`pause-${size.label}.png`) });
    const back = await sayTo(page, 'Elena Rossi', 'You never listen, this is your fault.');
    await expect(back).toHaveAccessibleName('Elena Rossi');
    await expect(back).toContainText(/not going to take the blame/);
  });
}

test('the report: the checks, the verdict, where it went wrong, and try again as take 2', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await startFromMeeting(page);
  const bar = page.getByRole('region', { name: t.rehearsalBadge });
  await expect(bar.getByRole('button', { name: voiceTexts.startVoiceCall })).toBeVisible();
  await expect(bar.getByRole('button', { name: t.callMe })).toHaveCount(0);
  await sayTo(page, 'Elena Rossi', 'Um, I want to talk about the roadmap.');
  await sayTo(page, 'Elena Rossi', 'Basically we need to drop one project, you know.');
  const three = await sayTo(page, 'Elena Rossi', 'Can we maybe agree to drop the reporting project by Friday?');
  await expect(three).toContainText(/vague|plainly/);
  await expect(theirLines(page, 'Elena Rossi')).toHaveCount(3);

  await bar.getByRole('button', { name: t.getReport }).click();
  await expect(page).toHaveURL(/\/rehearsals\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: t.reportTitle('Elena Rossi') })).toBeVisible();
  const checks = page.getByRole('region', { name: t.checksHeading });
  await expect(checks).toContainText(t.verdictFailed(t.checkLabels.pushbacks));
  await expect(checks.getByRole('listitem', { name: t.checkLabels.purpose })).toContainText(t.checkStatus.passed);
  await expect(checks.getByRole('listitem', { name: t.checkLabels.request })).toContainText(t.checkStatus.passed);
  await expect(checks.getByRole('listitem', { name: t.checkLabels.hedges })).toContainText(t.checkStatus.failed);
  await expect(checks.getByRole('listitem', { name: t.checkLabels.hedges })).toContainText('“maybe”');
  const fillers = page.getByRole('region', { name: t.fillerHeading });
  await expect(fillers.locator('mark')).toHaveText(['Um', 'Basically', 'you know']);
  // One action on the report page once it is written: no second 'Get the report'.
  await expect(page.getByRole('button', { name: t.getReport })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('report.png'), fullPage: true });

  // Where it went wrong: the second turn (the pushback not acknowledged), taken again from there.
  await expect(checks).toContainText(t.wentWrongTurn(2));
  await checks.getByRole('button', { name: t.tryAgain }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await expect(page.getByText(t.retried('Rehearsal: Elena Rossi, take 2'))).toBeVisible();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).first()).toContainText('Um, I want to talk about the roadmap.');
  await expect(theirLines(page, 'Elena Rossi')).toHaveCount(1);
  // The retried chat's report action is the one for its own turns.
  await expect(bar.getByRole('button', { name: t.getReport })).toHaveCount(1);

  // Under each turn of the first chat, 'Try again from here' still works.
  await page.goto('/rehearsals');
  await expect(page.getByRole('listitem').filter({ hasText: t.reportTitle('Elena Rossi') }).filter({ hasNotText: commonTexts.sampleBadge })).toHaveCount(2);
});

test('a turn the safety line answered offers no try again from it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await startFromMeeting(page);
  await sayTo(page, 'Elena Rossi', 'Um, I want to talk about the roadmap.');
  const out = await sayTo(page, 'Elena Rossi', 'Honestly I have been thinking about ending my life.');
  await expect(out).toHaveAccessibleName(chatTexts.speakerCoach);
  await expect(out).toContainText(rehearsalChatTexts.safetyStepOut);
  // The ordinary turn keeps its 'Try again from here'; the one the safety line answered has none.
  await expect(conversation(page).getByRole('button', { name: t.tryAgain })).toHaveCount(1);
});
