import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { commonTexts, landingTexts, legalTexts } from '../../src/shared/texts';
import { messageInput } from './support/chatPage';
import { holdRequests } from './support/holdRequests';

// Axe over the public pages, the chat and the not-found page finds nothing critical,
// serious or moderate (WCAG 2.x A and AA rules and axe's best practices, as axe runs by default,
// and the experimental label-in-name rule).
// Each page is checked once it has settled (its heading or input on screen), in light mode.

const pages: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
  { path: '/', ready: (page) => expect(page.getByRole('heading', { level: 1, name: landingTexts.hero.title })).toBeVisible() },
  { path: '/login', ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible() },
  { path: '/terms', ready: (page) => expect(page.getByRole('heading', { level: 1, name: legalTexts.terms.title })).toBeVisible() },
  { path: '/privacy', ready: (page) => expect(page.getByRole('heading', { level: 1, name: legalTexts.privacy.title })).toBeVisible() },
  {
    path: '/app',
    // The app has replaced the prerendered placeholder (drawn before any script, inert) and knows the user.
    ready: async (page) => {
      await expect(page.locator('[data-app-placeholder]')).toHaveCount(0);
      await expect(page.getByRole('link', { name: /signed in as/ })).toBeVisible();
      await expect(messageInput(page)).toBeEditable();
    },
  },
  { path: '/no-such-page', ready: (page) => expect(page.getByRole('heading', { level: 1, name: commonTexts.notFoundTitle })).toBeVisible() },
  // An unknown path under an app screen: the not-found page inside the app's shell.
  { path: '/settings/no-such-page', ready: (page) => expect(page.getByRole('heading', { level: 1, name: commonTexts.notFoundTitle })).toBeVisible() },
];

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

for (const { path, ready } of pages) {
  test(`axe finds no critical, serious or moderate problem on ${path}`, async ({ page }) => {
    await page.goto(path);
    await ready(page);
    // A prerendered page is checked once React has taken it over.
    await expect(page.locator('html[data-hydration="pending"]')).toHaveCount(0);
    // Also axe's experimental check that a control's accessible name contains its visible label.
    const results = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
    const problems = results.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.impact === 'moderate')
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
    expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
  });
}

// The chat list's loading state is on screen until its answer comes: axe checks it too (it once
// carried a label without a role, which axe flags when it happens to run while the list loads).
test('axe finds no critical, serious or moderate problem in the chat list while it loads', async ({ page }) => {
  const release = await holdRequests(page, (url) => url.pathname.includes('chats.list'));
  // A page of the app's shell without a prerendered placeholder (/app's waits for the list).
  await page.goto('/settings/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: commonTexts.notFoundTitle })).toBeVisible();
  const loading = page.locator('[aria-busy="true"]');
  await expect(loading).toBeAttached();
  const results = await new AxeBuilder({ page }).analyze();
  release();
  const problems = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.impact === 'moderate')
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
  await expect(loading).toHaveCount(0);
});
