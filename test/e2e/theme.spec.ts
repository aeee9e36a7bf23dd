import { expect, test } from '@playwright/test';

// Theme (the product spec's entities and constants and limits): light by default, dark available, kept under 'theme' and
// applied as a class on <html>.
test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('the theme is light by default; dark is kept under theme across reloads', async ({ page }) => {
  const html = page.locator('html');
  await page.goto('/app');
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');

  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Dark theme' }).click();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');

  await expect(page.locator('meta[name="theme-color"]').first()).toHaveAttribute('content', '#242424');

  await page.reload();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Light theme' }).click();
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  for (const meta of await page.locator('meta[name="theme-color"]').all()) await expect(meta).toHaveAttribute('content', '#ffffff');
  expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');
});

// The stored scheme is applied before the first paint, by the pages' one inline script (the CSP
// allows it by its hash), not when the app's scripts have run: here they never run at all.
for (const path of ['/', '/app', '/terms', '/login', '/no-such-page']) {
  test(`a dark-theme visitor gets ${path} dark from its first paint, before any of the app's scripts`, async ({ page }) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    await page.route('**/assets/*.js', (route) => route.abort());

    await page.goto(path);

    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
    // Mantine's dark body colour (dark 7), not white; the phone's address bar takes it too (the
    // first theme-color of the document is the one that counts).
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(36, 36, 36)');
    expect(await page.locator('meta[name="theme-color"]').first().getAttribute('content')).toBe('#242424');
    expect(refused).toEqual([]);
  });
}

test('with nothing stored, or something unknown, the pages stay light', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('theme', 'purple'));
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  await expect(page.locator('meta[name="theme-color"]')).toHaveCount(1);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ffffff');
});
