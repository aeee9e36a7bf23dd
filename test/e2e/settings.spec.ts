import { expect, test, type Page } from '@playwright/test';
import { nudgesTexts, settingsTexts } from '../../src/shared/texts/index.js';

// The settings page (the product spec's screens) with a fresh account per test, so nothing clashes with
// other tests sharing the demo user. The onboarding dialog is marked as seen.
let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const account = {
    username: `set${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`,
    password: 'settings-secret',
    fullName: 'Sasha Settings',
    jobTitle: 'Product Manager',
    company: 'Acme',
  };
  const res = await page.request.post('/api/auth/register', { data: account, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
  return account;
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await signUpFreshUser(page, baseURL);
});

function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

test('the profile tab saves to the server and keeps the values after a reload', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: settingsTexts.tabs.profile })).toHaveAttribute('aria-selected', 'true');
  await expect(field(page, settingsTexts.fullName)).toHaveValue('Sasha Settings');
  await expect(field(page, settingsTexts.jobTitle)).toHaveValue('Product Manager');
  await expect(field(page, settingsTexts.company)).toHaveValue('Acme');

  await field(page, settingsTexts.fullName).fill('Sasha Q. Settings');
  await field(page, settingsTexts.email).fill('sasha@example.com');
  await field(page, settingsTexts.jobTitle).fill('Group Product Manager');
  await field(page, settingsTexts.company).fill('Globex');
  await field(page, settingsTexts.phone).fill('+1 555 123 4567');
  await page.getByRole('button', { name: settingsTexts.saveProfile }).click();

  await expect(page.getByText(settingsTexts.profileSavedTitle)).toBeVisible();
  await expect(field(page, settingsTexts.phone)).toHaveValue('+15551234567');
  await expect(page.getByRole('button', { name: 'Account menu for Sasha Q. Settings' })).toContainText('Group Product Manager');
  await page.reload();
  await expect(field(page, settingsTexts.fullName)).toHaveValue('Sasha Q. Settings');
  await expect(field(page, settingsTexts.email)).toHaveValue('sasha@example.com');
  await expect(field(page, settingsTexts.jobTitle)).toHaveValue('Group Product Manager');
  await expect(field(page, settingsTexts.company)).toHaveValue('Globex');
  await expect(field(page, settingsTexts.phone)).toHaveValue('+15551234567');
});

test('the profile tab shows what is wrong and saves nothing', async ({ page }) => {
  await page.goto('/settings');
  await field(page, settingsTexts.fullName).fill('S');
  await field(page, settingsTexts.email).fill('not-an-email');
  await field(page, settingsTexts.phone).fill('555 1234');

  await page.getByRole('button', { name: settingsTexts.saveProfile }).click();

  await expect(page.getByText(settingsTexts.fullNameRequired)).toBeVisible();
  await expect(page.getByText(settingsTexts.invalidEmail)).toBeVisible();
  await expect(page.getByText(settingsTexts.invalidPhone)).toBeVisible();
  await expect(page.getByText(settingsTexts.profileSavedTitle)).toHaveCount(0);
  await page.reload();
  await expect(field(page, settingsTexts.fullName)).toHaveValue('Sasha Settings');
});

test('the notifications tab starts from the defaults and keeps saved choices after a reload', async ({ page }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: settingsTexts.tabs.notifications }).click();
  const sw = (name: string) => page.getByRole('switch', { name });
  await expect(sw(settingsTexts.emailNotifications)).toBeChecked();
  await expect(sw(settingsTexts.pushNotifications)).not.toBeChecked();
  await expect(sw(settingsTexts.coachingSuggestions)).toBeChecked();
  // Issue 49: one weekly switch, the weekly review's (the profile's weeklyDigest is that setting).
  await expect(page.getByRole('switch', { name: /weekly/i })).toHaveCount(1);
  await expect(sw(nudgesTexts.weeklyReview)).toBeChecked();

  await sw(settingsTexts.pushNotifications).check();
  await page.getByRole('button', { name: settingsTexts.saveNotifications }).click();
  await expect(page.getByText(settingsTexts.notificationsSavedTitle)).toBeVisible();
  await sw(nudgesTexts.weeklyReview).uncheck();
  await page.getByRole('button', { name: nudgesTexts.save }).click();
  await expect(page.getByRole('alert').filter({ hasText: nudgesTexts.saved }).last()).toBeVisible();
  await expect(page.getByTestId('nudge-next-run')).toHaveText(nudgesTexts.noNextRun);
  const profile = await page.request.get('/trpc/profile.get');
  expect((await profile.json()).result.data.notifications.weeklyDigest).toBe(false);

  await page.reload();
  await expect(page.getByRole('tab', { name: settingsTexts.tabs.notifications })).toHaveAttribute('aria-selected', 'true');
  await expect(sw(settingsTexts.emailNotifications)).toBeChecked();
  await expect(sw(settingsTexts.pushNotifications)).toBeChecked();
  await expect(sw(settingsTexts.coachingSuggestions)).toBeChecked();
  await expect(sw(nudgesTexts.weeklyReview)).not.toBeChecked();
});

test('the privacy tab starts from the defaults and keeps saved choices after a reload', async ({ page }) => {
  await page.goto('/settings?tab=privacy');
  const retention = page.getByRole('combobox', { name: settingsTexts.dataRetention });
  const sw = (name: string) => page.getByRole('switch', { name });
  await expect(retention).toHaveValue('90 days');
  await expect(sw(settingsTexts.shareAnonymousData)).not.toBeChecked();
  await expect(sw(settingsTexts.storeChatHistory)).toBeChecked();

  await retention.click();
  await expect(page.getByRole('option')).toHaveText(['30 days', '90 days', '180 days', '1 year', 'Forever']);
  await page.getByRole('option', { name: '1 year' }).click();
  await sw(settingsTexts.shareAnonymousData).check();
  await sw(settingsTexts.storeChatHistory).uncheck();
  await page.getByRole('button', { name: settingsTexts.savePrivacy }).click();

  await expect(page.getByText(settingsTexts.privacySavedTitle)).toBeVisible();
  await page.reload();
  await expect(retention).toHaveValue('1 year');
  await expect(sw(settingsTexts.shareAnonymousData)).toBeChecked();
  await expect(sw(settingsTexts.storeChatHistory)).not.toBeChecked();
});

test('the integrations tab shows the Microsoft services as not connected', async ({ page }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: settingsTexts.tabs.integrations }).click();

  for (const name of ['Microsoft Email', 'Microsoft Calendar', 'Microsoft Teams']) {
    await expect(page.getByRole('group', { name })).toContainText(settingsTexts.notConnected);
  }
  await expect(page.getByText(settingsTexts.microsoftManage)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Gmail' })).toContainText(settingsTexts.comingSoon);
  await expect(page.getByRole('button', { name: 'Disconnect' })).toHaveCount(0);
});

test("the sidebar's menu and the user menu both lead to Settings", async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: settingsTexts.title, level: 1 })).toBeVisible();

  await page.goto('/app');
  await page.getByRole('button', { name: 'Account menu for Sasha Settings' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();

  await expect(page).toHaveURL(/\/settings$/);
  await expect(field(page, settingsTexts.fullName)).toHaveValue('Sasha Settings');
});
