import { expect, test } from '@playwright/test';
import { debriefTexts, rehearsalTexts } from '../../src/shared/texts/index.js';

// A demo visitor debriefs yesterday's sample Teams meeting from the Meetings page: the debrief's
// chart of who spoke, the coach's moments quoting the visitor at their times, 'Rehearse this'
// opening a rehearsal with the main other speaker; and the trends page's charts.

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

for (const size of [
  { label: 'desktop', viewport: { width: 1280, height: 800 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`debriefs a sample meeting, draws it, and rehearses its weakest moment (${size.label})`, async ({ page }, testInfo) => {
    await page.setViewportSize(size.viewport);
    await page.goto('/meetings');
    const recent = page.getByRole('region', { name: debriefTexts.recentHeading });
    const card = recent.getByRole('listitem', { name: 'Weekly team sync' }).first();
    await card.getByRole('button', { name: `${debriefTexts.debriefButton}: Weekly team sync` }).click();

    await expect(page).toHaveURL(/\/debrief\?meeting=sample-\d{8}-1/);
    await expect(page.getByRole('heading', { name: debriefTexts.chatTitle('Weekly team sync') })).toBeVisible();
    await expect(page.getByText(debriefTexts.sampleNote)).toBeVisible();
    // The chart of who spoke, with each speaker's share beside it.
    const speakers = page.getByRole('figure', { name: debriefTexts.speakersHeading });
    await expect(speakers.locator('svg.recharts-surface').first()).toBeVisible();
    for (const name of ['Priya Shah', 'Marcus Chen', 'Tom Becker']) await expect(page.getByRole('progressbar', { name: new RegExp(`^${name}: \\d+%$`) })).toBeVisible();
    // The moments quote the visitor's own words, at their times.
    const moments = page.getByRole('region', { name: debriefTexts.momentsHeadingPage });
    await expect(moments.getByText('3:12', { exact: true })).toBeVisible();
    await expect(moments).toContainText('At 3:12 you started “Sure, let me finish the approvals point first.” while Priya was still speaking.');
    await expect(page.getByRole('region', { name: debriefTexts.strengthsHeadingPage })).toContainText('“What would help you land the migration review by Wednesday, Marcus?”');
    await page.screenshot({ path: testInfo.outputPath(`debrief-${size.label}.png`), fullPage: true });

    await page.getByRole('button', { name: debriefTexts.rehearseThis }).click();
    await expect(page).toHaveURL(/\/app\?chat=\d+/);
    await expect(page.getByRole('region', { name: rehearsalTexts.sceneLabel })).toContainText('Priya Shah');
    await expect(page.getByRole('region', { name: rehearsalTexts.sceneLabel })).toContainText('Sure, let me finish the approvals point first.');

    // Back on the Meetings page the meeting opens its debrief; the trends draw it.
    await page.goto('/meetings');
    await expect(page.getByRole('region', { name: debriefTexts.recentHeading }).getByRole('button', { name: `${debriefTexts.openDebrief}: Weekly team sync` })).toBeVisible();
    // The sync a week before, debriefed too: the trends then draw a change.
    await page.getByRole('region', { name: debriefTexts.recentHeading }).getByRole('button', { name: `${debriefTexts.debriefButton}: Weekly team sync`, exact: true }).click();
    await expect(page).toHaveURL(/\/debrief\?meeting=sample-\d{8}-1/);
    await expect(page.getByRole('region', { name: debriefTexts.momentsHeadingPage })).toBeVisible();
    await page.goto('/meetings');
    await page.getByRole('region', { name: debriefTexts.recentHeading }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`meetings-${size.label}.png`) });
    await page.getByRole('region', { name: debriefTexts.recentHeading }).getByRole('link', { name: debriefTexts.trendsLink }).click();
    await expect(page).toHaveURL(/\/debriefs$/);
    await expect(page.getByRole('figure', { name: debriefTexts.talkShareLabel }).locator('svg.recharts-surface').first()).toBeVisible();
    await expect(page.getByRole('figure', { name: debriefTexts.byPerson }).locator('svg.recharts-surface').first()).toBeVisible();
    await page.getByText(debriefTexts.bySeries, { exact: true }).click();
    await expect(page.getByRole('figure', { name: debriefTexts.bySeries })).toContainText(/Weekly team\s*sync/);
    await page.screenshot({ path: testInfo.outputPath(`trends-${size.label}.png`), fullPage: true });
  });
}
