import { expect, test } from '@playwright/test';

// Auth with demo mode off and no ACCESS_KEY: real accounts only.

let counter = 0;
function uniqueUsername(prefix = 'nodemo') {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
}

test.beforeEach(async ({ page }) => {
  // The onboarding dialog is another screen's business; keep it out of the way.
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('the access key tab says access key login is not enabled', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Access Key' }).click();

  await page.getByRole('textbox', { name: 'Access key' }).fill('any-key-at-all');
  await page.getByRole('button', { name: 'Continue with access key' }).click();

  await expect(page.getByText('Access key login is not enabled')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('/login does not offer the demo credentials, which do not work here', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('tab', { name: 'Account Login' })).toBeVisible();
  await expect(page.getByText('Demo credentials')).toBeHidden();

  await page.getByRole('textbox', { name: 'Username' }).fill('demo');
  await page.getByRole('textbox', { name: 'Password' }).fill('demo1234');
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByText('Login failed: Invalid username or password')).toBeVisible();
});

test('the auth dialog offers no Demo Login', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'AI Coach' });
  await expect(dialog.getByRole('textbox', { name: 'Username' })).toBeVisible();

  await expect(dialog.getByRole('button', { name: 'Demo Login' })).toHaveCount(0);
});

test('/app asks a signed-out visitor to sign in, and signing up there shows the app', async ({ page }) => {
  await page.goto('/app');
  const panel = page.getByRole('heading', { name: 'Sign in to continue' });
  await expect(panel).toBeVisible();

  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByRole('textbox', { name: 'Username' }).fill(uniqueUsername());
  await page.getByRole('textbox', { name: 'Password' }).fill('secret-pass');
  await page.getByRole('textbox', { name: 'Full name' }).fill('Avery Nodemo');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText('Registration successful')).toBeVisible();
  await expect(page).toHaveURL(/\/app$/);
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Account menu for Avery Nodemo' })).toBeVisible();
});

test('/app signs in an existing account from the sign-in panel', async ({ page, request }) => {
  const account = { username: uniqueUsername(), password: 'secret-pass', fullName: 'Quinn Returning' };
  expect((await request.post('/api/auth/register', { data: account })).status()).toBe(201);
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Username' }).fill(account.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByText('Welcome back, Quinn Returning!')).toBeVisible();
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole('button', { name: 'Account menu for Quinn Returning' })).toBeVisible();
});

test('after logout /app asks to sign in again', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByRole('textbox', { name: 'Username' }).fill(uniqueUsername('out'));
  await page.getByRole('textbox', { name: 'Password' }).fill('secret-pass');
  await page.getByRole('textbox', { name: 'Full name' }).fill('Riley Leaving');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Account menu for Riley Leaving' }).click();

  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page.getByText('Logged out')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
});
