import { expect, test, type Page } from '@playwright/test';
import { authTexts, memoryTexts, nudgesTexts } from '../../src/shared/texts/index.js';
import { documentTitle, pageTitles, skipLinkText } from '../../src/shared/texts/pageTitles.js';
import { say } from './support/chatPage.js';

// Issue 49, items 5 and 7 (parts): what a new user trips over while finding their way. Every
// page names itself in the tab; a skip link leads past the header and sidebar; the nudges are in
// the sidebar and run for a visitor, in the app; a deleted memory comes back with Undo; search
// snippets read as plain text; a phone shows no keyboard hints.

const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const username = `finding${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  const res = await page.request.post('/api/auth/register', { data: { username, password: 'finding-secret-1', fullName: 'Fin Ding' }, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

const toast = (page: Page, title: string) => page.getByRole('alert').filter({ hasText: title }).last();

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('every client route, loaded directly, names its page in the title, from the served HTML on for the prerendered ones', async ({ page, request }) => {
  test.setTimeout(120_000);
  // A visitor: the samples' chat and rehearsal are read without making a space.
  const chats = (await (await request.get('/api/chats')).json()) as Array<{ id: number; title: string }>;
  const rehearsals = ((await (await request.get('/api/rehearsals')).json()) as { rehearsals: Array<{ id: number }> }).rehearsals;
  expect(chats.length).toBeGreaterThan(0);
  expect(rehearsals.length).toBeGreaterThan(0);
  const routes: Array<[string, string]> = [
    ['/', documentTitle()],
    ['/login', documentTitle(pageTitles['/login'])],
    ['/terms', documentTitle(pageTitles['/terms'])],
    ['/privacy', documentTitle(pageTitles['/privacy'])],
    ['/admin', documentTitle(pageTitles['/_app/admin'])],
    ['/app', documentTitle(pageTitles['/_app/app'])],
    [`/app?chat=${chats[0]!.id}`, documentTitle(chats[0]!.title)],
    ['/goals', 'Goals · AI Coach'],
    ['/integrations', documentTitle(pageTitles['/_app/integrations'])],
    ['/knowledge-base', documentTitle(pageTitles['/_app/knowledge-base'])],
    ['/meetings', documentTitle(pageTitles['/_app/meetings'])],
    ['/memory', documentTitle(pageTitles['/_app/memory'])],
    ['/microsoft-emails', documentTitle(pageTitles['/_app/microsoft-emails'])],
    ['/microsoft-folders', documentTitle(pageTitles['/_app/microsoft-folders'])],
    ['/microsoft-manual-auth', documentTitle(pageTitles['/_app/microsoft-manual-auth'])],
    ['/nudges', documentTitle(pageTitles['/_app/nudges'])],
    ['/phone-calls', documentTitle(pageTitles['/_app/phone-calls'])],
    ['/rehearsals', documentTitle(pageTitles['/_app/rehearsals/'])],
    [`/rehearsals/${rehearsals[0]!.id}`, documentTitle(pageTitles['/_app/rehearsals/$id'])],
    ['/settings', 'Settings · AI Coach'],
    ['/writing-style-analysis', documentTitle(pageTitles['/_app/writing-style-analysis'])],
    ['/no-such-page', documentTitle(pageTitles.__root__)],
  ];
  for (const [path, title] of routes) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  expect(new Set(routes.map(([, title]) => title)).size).toBe(routes.length);
  // The prerendered pages carry their title before any script runs.
  for (const [path, title] of routes.filter(([path]) => ['/', '/login', '/terms', '/privacy', '/no-such-page'].includes(path))) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain(`<title>${title}</title>`);
  }
});

test('the first Tab reaches a visible skip link, which moves the focus to the main landmark', async ({ page }) => {
  for (const path of ['/goals', '/']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    const skip = page.getByRole('link', { name: skipLinkText });
    // Off screen until focused.
    await expect(skip).not.toBeInViewport();
    await page.keyboard.press('Tab');
    await expect(skip, path).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main'), path).toBeFocused();
  }
});

test.describe('nudges for a visitor', () => {
  test('are in the sidebar, say before the click what Run now does, and run in the app', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/app');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: nudgesTexts.navLabel }).click();
    await expect(page).toHaveURL(/\/nudges$/);
    await expect(page.getByRole('heading', { name: nudgesTexts.historyTitle, level: 1 })).toBeVisible();
    await expect(page.getByTestId('nudges-guest-note')).toHaveText(nudgesTexts.guestInAppOnly);
    const runs = page.getByTestId('nudge-run');
    // The demo's example review.
    await expect(runs).toHaveCount(1);

    await page.getByRole('button', { name: nudgesTexts.runNow }).click();
    await expect(runs).toHaveCount(2, { timeout: 20_000 });
    const sent = runs.filter({ hasText: nudgesTexts.statusLabel.sent! }).filter({ hasNotText: 'Sample' }).first();
    await expect(sent).toBeVisible({ timeout: 20_000 });
    await expect(sent).toContainText('app');
    await expect(page.getByRole('alert').filter({ hasText: authTexts.accountRequired })).toHaveCount(0);
    await sent.getByRole('button', { name: nudgesTexts.openChat }).click();
    await expect(page).toHaveURL(/\/app\?chat=\d+/);
    await expect(page.getByText(/^Your focus this week: /).first()).toBeVisible();

    // Settings, Notifications: the same, and one weekly setting (the review's; none for a guest).
    await page.goto('/settings?tab=notifications');
    await expect(page.getByRole('heading', { name: nudgesTexts.settingsTitle })).toBeVisible();
    await expect(page.getByTestId('nudges-guest-note')).toBeVisible();
    await expect(page.getByRole('switch', { name: /weekly/i })).toHaveCount(0);
  });

  test.describe('on a phone', () => {
    test.use(phone);
    test("are in the phone's menu", async ({ page }) => {
      await page.goto('/app');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: nudgesTexts.navLabel }).click();
      await expect(page).toHaveURL(/\/nudges$/);
      await expect(page.getByRole('button', { name: nudgesTexts.runNow })).toBeVisible();
    });
  });
});

test('deleting a memory says so with Undo, which puts it back exactly as it was', async ({ page, baseURL }) => {
  await signUpFreshUser(page, baseURL);
  const created = await page.request.post('/api/memories', { data: { text: 'Send the board deck to Priya', kind: 'commitment', dueAt: '2099-03-01T09:00:00.000Z' }, headers: { origin: baseURL ?? '' } });
  expect(created.status()).toBe(201);
  const before = (await (await page.request.get('/api/memories')).json()).memories;
  await page.goto('/memory');
  const commitments = page.getByRole('region', { name: memoryTexts.kinds.commitment });
  await expect(commitments).toContainText('Send the board deck to Priya');

  await page.getByRole('button', { name: memoryTexts.deleteMemory('Send the board deck to Priya') }).click();
  const deleted = toast(page, memoryTexts.deleted);
  await expect(deleted).toBeVisible();
  await expect(commitments).toHaveCount(0);
  await deleted.getByRole('button', { name: memoryTexts.undo }).click();
  await expect(toast(page, memoryTexts.restored)).toBeVisible();
  await expect(commitments).toContainText('Send the board deck to Priya');
  expect((await (await page.request.get('/api/memories')).json()).memories).toEqual(before);
});

test('search snippets read as plain text, the match still marked', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signUpFreshUser(page, baseURL);
  await page.goto('/app?new=true');
  await say(page, '**Quokkaplan options:** _ship_ it or [wait](https://example.com/later)');
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: memoryTexts.searchTitle });
  await dialog.getByRole('combobox', { name: memoryTexts.searchTitle }).fill('quokkaplan');
  // The snippet of the user's message (the chat's title is the message as typed).
  const snippet = dialog.getByRole('option').filter({ hasText: 'options' }).first().locator('p').last();
  await expect(snippet).toBeVisible();
  await expect(snippet.locator('mark').first()).toHaveText(/quokkaplan/i);
  await expect(snippet).toContainText('Quokkaplan options: ship it or wait');
  for (const raw of ['**', '_ship_', '](']) await expect(snippet).not.toContainText(raw);
});

test.describe('on a phone', () => {
  test.use(phone);
  test('the search shows no keyboard hints (Ctrl+K, arrow keys)', async ({ page }) => {
    await page.goto('/app');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const searchButton = page.getByRole('button', { name: memoryTexts.searchButton });
    await expect(searchButton).toBeVisible();
    await expect(searchButton.getByText(memoryTexts.searchShortcut)).toBeHidden();
    await searchButton.click();
    const dialog = page.getByRole('dialog', { name: memoryTexts.searchTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('↑', { exact: true })).toBeHidden();
    await expect(dialog.getByText('Enter', { exact: true })).toBeHidden();
  });
});
