import { expect, test, type Page } from '@playwright/test';
import { storageKeys } from '../../src/shared/constants.js';
import { onboardingStorageKey } from '../../src/shared/settingsConstants.js';
import { onboardingTexts } from '../../src/shared/texts/index.js';

// The 'Welcome to AI Coach' dialog (the product spec's screens) as a first-time visitor meets it. Every
// test starts from an empty browser, whatever the config's storage state says.
test.use({ storageState: { cookies: [], origins: [] } });

function dialog(page: Page) {
  return page.getByRole('dialog', { name: onboardingTexts.title });
}

async function seenFlag(page: Page) {
  return page.evaluate((key) => window.localStorage.getItem(key), storageKeys.hasSeenOnboarding);
}

/** After a reload, the app shell is up and the dialog did not come back. */
async function expectStaysClosedAfterReload(page: Page) {
  await page.reload();
  await expect(page.getByRole('button', { name: /^Account menu for / })).toBeVisible();
  await expect(dialog(page)).toHaveCount(0);
}

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined, jobTitle: string, company: string) {
  counter += 1;
  const account = {
    username: `onb${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`,
    password: 'onboarding-secret',
    fullName: 'Olivia Onboard',
    jobTitle,
    company,
  };
  const res = await page.request.post('/api/auth/register', { data: account, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

test('a first visit walks through the three steps and Complete Setup closes the dialog for good', async ({ page }) => {
  await page.goto('/app');
  const welcome = dialog(page);
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.toolsStep })).toBeVisible();
  await expect(welcome.getByRole('button', { name: onboardingTexts.back })).toBeDisabled();

  for (const tool of Object.values(onboardingTexts.tools)) {
    await expect(welcome.getByRole('button', { name: new RegExp(tool) })).toBeVisible();
  }
  await welcome.getByRole('button', { name: /Gmail/ }).click();
  await expect(page.getByText(onboardingTexts.connectedToast('Gmail'))).toBeVisible();
  await expect(welcome.getByRole('button', { name: /Gmail/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(welcome.getByRole('button', { name: /Gmail/ })).toContainText(onboardingTexts.connected);
  await expect(welcome.getByRole('button', { name: /LinkedIn/ })).toHaveAttribute('aria-pressed', 'false');

  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.roleStep })).toBeVisible();
  await expect(welcome.getByLabel(onboardingTexts.jobTitle)).toHaveAttribute('placeholder', onboardingTexts.jobTitlePlaceholder);
  await expect(welcome.getByLabel(onboardingTexts.company)).toBeVisible();
  await welcome.getByLabel(onboardingTexts.manager).fill('Sam Rivera');
  await welcome.getByLabel(onboardingTexts.directReports).fill('4');

  // Back keeps what was chosen.
  await welcome.getByRole('button', { name: onboardingTexts.back }).click();
  await expect(welcome.getByRole('button', { name: /Gmail/ })).toHaveAttribute('aria-pressed', 'true');
  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByLabel(onboardingTexts.manager)).toHaveValue('Sam Rivera');

  // The steps above: the current one is marked, a step done goes back to it, a later one does not open.
  const stepButton = (label: string) => welcome.getByRole('button', { name: new RegExp(`^(\\d )?${label}$`) });
  await expect(stepButton(onboardingTexts.roleStepShort)).toHaveAttribute('aria-current', 'step');
  await stepButton(onboardingTexts.privacyStepShort).click();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.roleStep })).toBeVisible();
  await stepButton(onboardingTexts.toolsStepShort).click();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.toolsStep })).toBeVisible();
  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByLabel(onboardingTexts.manager)).toHaveValue('Sam Rivera');

  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.privacyStep })).toBeVisible();
  await expect(welcome.getByRole('checkbox', { name: onboardingTexts.saveChatHistory })).toBeChecked();
  await welcome.getByRole('combobox', { name: onboardingTexts.emailHistory }).click();
  await page.getByRole('option', { name: onboardingTexts.emailHistoryLabel('90') }).click();
  await welcome.getByRole('combobox', { name: onboardingTexts.calendarAccess }).click();
  await page.getByRole('option', { name: onboardingTexts.calendarAccessLabels.public }).click();
  await welcome.getByRole('checkbox', { name: onboardingTexts.saveChatHistory }).uncheck();
  await expect(welcome.getByRole('button', { name: onboardingTexts.next })).toHaveCount(0);

  await welcome.getByRole('button', { name: onboardingTexts.completeSetup }).click();

  await expect(page.getByText(onboardingTexts.completeTitle)).toBeVisible();
  await expect(dialog(page)).toHaveCount(0);
  expect(await seenFlag(page)).not.toBeNull();
  const saved = await page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) ?? 'null'), onboardingStorageKey);
  expect(saved).toMatchObject({
    manager: 'Sam Rivera',
    directReports: 4,
    privacy: { emailHistoryDays: '90', calendarAccess: 'public', saveChatHistory: false },
    connections: { gmail: true, outlook: false, googleCalendar: false, teams: false, linkedin: false },
  });
  await expectStaysClosedAfterReload(page);
});

/** The element drawn on top at a point of the page, described by its class names and text. */
async function topmostAt(page: Page, x: number, y: number) {
  return page.evaluate(([px, py]) => {
    const element = document.elementFromPoint(px!, py!);
    return { overlay: Boolean(element?.closest('.mantine-Modal-overlay')), text: element?.closest('.mantine-Notification-root')?.textContent ?? '' };
  }, [x, y]);
}

// The dialog is drawn in place rather than through a portal, so nothing of the app
// shell may come to sit above it: the header and the sidebar are under its overlay, on a
// computer as on a phone, and a toast still shows above it.
for (const viewport of [
  { name: 'a computer', width: 1280, height: 800 },
  { name: 'a phone', width: 390, height: 844 },
]) {
  test(`on ${viewport.name} the dialog covers the whole app shell and a toast shows above it`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/app');
    const welcome = dialog(page);
    await expect(welcome).toBeVisible();

    // The app shell's header (under the open dialog it is out of the accessibility tree), the
    // page's first header: the dialog's own comes later, in its portal.
    const header = await page.locator('header').first().boundingBox();
    expect(header).not.toBeNull();
    expect(await topmostAt(page, header!.x + 8, header!.y + header!.height / 2)).toMatchObject({ overlay: true });
    expect(await topmostAt(page, header!.x + header!.width - 8, header!.y + header!.height / 2)).toMatchObject({ overlay: true });
    expect(await topmostAt(page, 8, viewport.height - 8)).toMatchObject({ overlay: true });

    await welcome.getByRole('button', { name: /Gmail/ }).click();
    const toast = page.getByText(onboardingTexts.connectedToast('Gmail'));
    await expect(toast).toBeVisible();
    await expect(async () => {
      const box = await toast.boundingBox();
      expect(box).not.toBeNull();
      expect((await topmostAt(page, box!.x + box!.width / 2, box!.y + box!.height / 2)).text).toContain(onboardingTexts.connectedToast('Gmail'));
    }).toPass({ timeout: 5000 });
  });
}

test('Escape closes the dialog and it does not come back', async ({ page }) => {
  await page.goto('/app');
  await expect(dialog(page)).toBeVisible();

  await page.keyboard.press('Escape');

  await expect(dialog(page)).toHaveCount(0);
  expect(await seenFlag(page)).not.toBeNull();
  await expectStaysClosedAfterReload(page);
});

test('the close button closes the dialog and it does not come back', async ({ page }) => {
  await page.goto('/app');

  await dialog(page).getByRole('button', { name: onboardingTexts.close }).click();

  await expect(dialog(page)).toHaveCount(0);
  await expectStaysClosedAfterReload(page);
});

test('a direct reports count cannot be negative or fractional', async ({ page }) => {
  await page.goto('/app');
  const welcome = dialog(page);
  await welcome.getByRole('button', { name: onboardingTexts.next }).click();

  await welcome.getByLabel(onboardingTexts.directReports).pressSequentially('-2.5');

  await expect(welcome.getByLabel(onboardingTexts.directReports)).toHaveValue('25');
});

test("the role step starts from the user's profile and saves a changed job title and company to it", async ({ page, baseURL }) => {
  await signUpFreshUser(page, baseURL, 'Team Lead', 'Initech');
  await page.goto('/app');
  const welcome = dialog(page);
  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByLabel(onboardingTexts.jobTitle)).toHaveValue('Team Lead');
  await expect(welcome.getByLabel(onboardingTexts.company)).toHaveValue('Initech');

  await welcome.getByLabel(onboardingTexts.jobTitle).fill('Head of Product');
  await welcome.getByLabel(onboardingTexts.company).fill('Globex');
  await welcome.getByRole('button', { name: onboardingTexts.next }).click();
  await expect(welcome.getByRole('heading', { name: onboardingTexts.privacyStep })).toBeVisible();

  // The sidebar's user block reads the profile.
  await expect(page.getByRole('button', { name: 'Account menu for Olivia Onboard' })).toContainText('Head of Product');
  await welcome.getByRole('button', { name: onboardingTexts.completeSetup }).click();
  await page.goto('/settings');
  await expect(page.getByRole('textbox', { name: 'Job title' })).toHaveValue('Head of Product');
  await expect(page.getByRole('textbox', { name: 'Company' })).toHaveValue('Globex');
});
