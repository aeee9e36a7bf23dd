import { expect, test, type Page } from '@playwright/test';
import { nudgesTexts } from '../../src/shared/texts/index.js';

// Nudges as a person uses them: the settings section with the next planned run, a
// saved change, run now, and the history page with the weekly review's chat.

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const username = `nudge${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  const res = await page.request.post('/api/auth/register', { data: { username, password: 'nudges-secret-1', fullName: 'Nia Nudge' }, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

test.beforeEach(async ({ page, baseURL }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await signUpFreshUser(page, baseURL);
});

test('the settings section saves the weekly review day, runs a review now, and the history opens its chat', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/settings?tab=notifications');
  await expect(page.getByRole('heading', { name: nudgesTexts.settingsTitle })).toBeVisible();
  await expect(page.getByTestId('nudge-next-run')).toContainText(/Next planned: Monday/);

  await page.getByRole('combobox', { name: nudgesTexts.day }).click();
  await page.getByRole('option', { name: 'Friday' }).click();
  await page.getByRole('button', { name: nudgesTexts.save }).click();
  await expect(page.getByRole('alert').filter({ hasText: nudgesTexts.saved }).last()).toBeVisible();
  await expect(page.getByTestId('nudge-next-run')).toContainText(/Next planned: Friday/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: nudgesTexts.day })).toHaveValue('Friday');

  await page.getByRole('button', { name: nudgesTexts.runNow }).click();
  await expect(page.getByRole('alert').filter({ hasText: nudgesTexts.runStarted }).last()).toBeVisible();

  await page.getByRole('link', { name: nudgesTexts.historyLink }).click();
  await expect(page).toHaveURL(/\/nudges$/);
  await expect(page.getByRole('heading', { name: nudgesTexts.historyTitle, level: 1 })).toBeVisible();
  const sent = page.getByTestId('nudge-run').filter({ hasText: nudgesTexts.statusLabel.sent! });
  await expect(sent).toHaveCount(1, { timeout: 20_000 });
  await expect(sent).toContainText(nudgesTexts.kindLabel.weekly_review!);
  // The planned Friday review is listed too, queued.
  await expect(page.getByTestId('nudge-run').filter({ hasText: nudgesTexts.statusLabel.queued! })).toHaveCount(1);

  await sent.getByRole('button', { name: nudgesTexts.openChat }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await expect(page.getByText(/^Your focus this week: /)).toBeVisible();
  await expect(page.getByText(nudgesTexts.reviewNoGoals)).toBeVisible();
});

test('the app is installable: a manifest with icons, and a service worker that registers', async ({ page, request }) => {
  await page.goto('/settings?tab=notifications');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = await request.get(href!);
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()['content-type']).toMatch(/application\/manifest\+json/);
  const body = await manifest.json();
  expect(body).toMatchObject({ name: 'AI Coach', start_url: '/app', display: 'standalone' });
  for (const size of ['192x192', '512x512']) {
    const icon = (body.icons as Array<{ src: string; sizes: string; type: string }>).find((i) => i.sizes === size && i.type === 'image/png');
    expect(icon, size).toBeTruthy();
    const res = await request.get(icon!.src);
    expect(res.status()).toBe(200);
    expect((await res.body()).subarray(1, 4).toString()).toBe('PNG');
  }
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  const state = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return { scope: registration.scope, active: Boolean(registration.active) };
  });
  expect(state).toEqual({ scope: expect.stringMatching(/\/$/), active: true });
});
