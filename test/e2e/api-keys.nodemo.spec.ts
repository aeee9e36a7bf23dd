import { expect, request as playwrightRequest, test } from '@playwright/test';
import { apiKeyTexts } from '../../src/shared/texts/index.js';

// Settings › API keys: create a key (shown once, with Copy), use it from a script
// with no cookie, see when it was last used, revoke it, and the script is refused.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('creates a key shown once, a script signs in with it, and revoking it locks the script out', async ({ page, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const username = `keys${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  expect((await page.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Kim Keys' } })).status()).toBe(201);

  await page.goto('/settings');
  const section = page.getByRole('list', { name: 'API keys' });
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  // The name is required.
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Give the key a name')).toBeVisible();

  await page.getByLabel('Key name').fill('Laptop script');
  // What the key may do: chats (ticked by default) and, chosen here, goals.
  await expect(page.getByRole('checkbox', { name: apiKeyTexts.scopeNames.chat })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: apiKeyTexts.scopeNames['calendar:read'] })).not.toBeChecked();
  await page.getByRole('checkbox', { name: apiKeyTexts.scopeNames.goals }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'API key created' });
  await expect(dialog.getByText('Copy this key now. It will not be shown again.')).toBeVisible();
  const key = (await dialog.getByLabel('Key').textContent())!.trim();
  expect(key).toMatch(/^aic_[A-Za-z0-9_-]{43,}$/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.screenshot({ path: test.info().outputPath('api-key-created.png') });
  await dialog.getByRole('button', { name: 'Done' }).click();

  const item = section.getByRole('listitem', { name: 'Laptop script' });
  await expect(item).toContainText(key.slice(0, 12));
  await expect(item).toContainText('Never used');
  await expect(item).toContainText(apiKeyTexts.scopesOf('chat, goals'));
  await expect(page.getByText(key)).toHaveCount(0);

  // A script: no cookie, no Origin.
  const script = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  expect((await script.post('/api/chats', { data: { title: 'From my script' } })).status()).toBe(201);
  expect((await script.post('/api/goals', { data: { title: 'From my script', framework: 'SMART', dueDate: '2027-01-31', keyResults: [] } })).status()).toBe(201);
  // Not given calendar:read: the meetings are not the script's.
  expect((await script.get('/api/meetings')).status()).toBe(403);
  await page.reload();
  await expect(section.getByRole('listitem', { name: 'Laptop script' })).toContainText('Last used');
  await expect(page.getByText('From my script').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('api-keys.png'), fullPage: true });

  await section.getByRole('button', { name: 'Revoke Laptop script' }).click();
  await expect(page.getByText('API key revoked')).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  expect((await script.get('/api/chats')).status()).toBe(401);
  await script.dispose();
});
