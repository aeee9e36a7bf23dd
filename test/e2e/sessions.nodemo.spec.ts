import { expect, test } from '@playwright/test';

// Settings, Active sessions: a user sees where they are signed in and signs out the
// other devices; a signed-out device is asked to sign in again.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('lists this device and another, and signs out all the others', async ({ page, browser, baseURL }) => {
  const username = `sessions${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const registered = await page.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Robin Sessions' } });
  expect(registered.status()).toBe(201);

  // The same account on a phone.
  const phone = await browser.newContext({ baseURL, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1' });
  await phone.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  expect((await phone.request.post('/api/auth/login', { data: { username, password: 'secret-pass' } })).status()).toBe(200);

  await page.goto('/settings');
  const list = page.getByRole('list', { name: 'Active sessions' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(list.getByRole('listitem', { name: 'Safari on iOS' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('active-sessions.png'), fullPage: true });

  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(page.getByText('Signed out 1 other session')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out all other sessions' })).toBeHidden();

  // The phone is signed out: the app asks it to sign in.
  const phonePage = await phone.newPage();
  await phonePage.goto('/app');
  await expect(phonePage.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
  await phone.close();
});
