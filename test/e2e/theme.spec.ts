import { expect, test } from '@playwright/test';

// Theme (SPEC sections 3 and 9): light by default, dark available, kept under 'theme' and
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

  await page.reload();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Light theme' }).click();
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');
});
