import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { authTexts, chatTexts, knowledgeBaseTexts, settingsTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, messageInput, userMessages } from './support/chatPage.js';

// What a new user meets in their first hour: a visitor who writes, then creates an account from the
// guest space, keeps what they wrote and none of the demo's samples, and is welcomed; the Create
// account dialog opened from inside Settings' profile form saves no profile; every client route
// loads directly (a reload, a shared link) with 200 and no console error.

test.setTimeout(400_000);

const sampleChatTitles = ['Quarterly OKR planning', 'Preparing a difficult conversation', 'Weekly team meeting agenda', 'Career growth with GROW'];

const sizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

for (const size of sizes) {
  test(`registering from the guest space (${size.name}) keeps the visitor's chats, goals, memories and knowledge base, none of the samples, and saves no profile`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: size.viewport, baseURL });
    await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
    const page = await context.newPage();
    const profileUpdates: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('profile.updateProfile')) profileUpdates.push(request.url());
    });

    // The visitor writes: a chat, a goal, a memory and their knowledge base.
    await page.goto('/app?new=true');
    await messageInput(page).fill('I want to delegate more to my team leads');
    await messageInput(page).press('Enter');
    await expect(userMessages(page).last()).toContainText('I want to delegate more', { timeout: 60_000 });
    // The offline coach's reply, on a machine shared by many tests: given a minute.
    await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 120_000 });
    await expect(coachMessages(page).last()).not.toBeEmpty();
    const origin = { origin: baseURL ?? '' };
    expect((await page.request.post('/api/goals', { data: { title: 'Delegate two projects', framework: 'SMART', dueDate: '2027-03-31', keyResults: [] }, headers: origin })).status()).toBe(201);
    expect((await page.request.post('/api/memories', { data: { text: 'Jordan leads the mobile team.', kind: 'person' }, headers: origin })).status()).toBe(201);
    await page.goto('/knowledge-base');
    const company = page.getByRole('textbox', { name: knowledgeBaseTexts.company, exact: false }).first();
    await company.fill('Sunrise Bakery');
    await page.getByRole('tab', { name: knowledgeBaseTexts.tabs.communication }).click();
    await page.getByRole('combobox', { name: knowledgeBaseTexts.emailTone }).click();
    await page.getByRole('option').first().click();
    const saved = page.waitForResponse((response) => response.url().includes('knowledgeBase.save'));
    await page.getByRole('button', { name: knowledgeBaseTexts.save }).click();
    expect((await saved).status()).toBe(200);

    // Create an account from Settings, where the button sits inside the profile form.
    await page.goto('/settings');
    await expect(page.getByRole('textbox', { name: settingsTexts.fullName, exact: true })).toHaveValue('Alex Morgan');
    await page.getByRole('button', { name: authTexts.createAccount }).first().click();
    const dialog = page.getByRole('dialog').getByRole('tabpanel', { name: 'Create Account' });
    await expect(dialog.getByRole('button', { name: 'Create account' })).toBeVisible();
    // First refused (the name is taken): nothing else is sent, no profile saved.
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill('demo');
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('first-hour-secret');
    await dialog.getByRole('textbox', { name: 'Full name', exact: true }).fill('Sam Rivera');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(authTexts.registrationFailedTitle).first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(settingsTexts.profileSavedTitle)).toHaveCount(0);
    expect(profileUpdates).toEqual([]);

    const username = `fh${Date.now().toString(36)}${size.name}`;
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
    await dialog.getByRole('button', { name: 'Create account' }).click();
    // Hashing the password (scrypt) takes a while on a loaded machine.
    await expect(page.getByText(authTexts.registeredTitle)).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(authTexts.registeredFromGuestBody('Sam Rivera'))).toBeVisible();
    await expect(page).toHaveURL(/\/app/);
    // Give a bubbled submit the time it would take to be sent.
    await page.waitForTimeout(1000);
    await expect(page.getByText(settingsTexts.profileSavedTitle)).toHaveCount(0);
    expect(profileUpdates).toEqual([]);

    // What the account holds.
    const session = await (await page.request.get('/api/auth/session')).json();
    expect(session.user).toMatchObject({ username, fullName: 'Sam Rivera' });
    const chats = ((await (await page.request.get('/api/chats')).json()) as Array<{ title: string }>).map((c) => c.title);
    expect(chats.some((title) => title.startsWith('I want to delegate more'))).toBe(true);
    for (const title of sampleChatTitles) expect(chats).not.toContain(title);
    expect(chats.some((title) => title.startsWith('Weekly review'))).toBe(false);
    const goals = ((await (await page.request.get('/api/goals')).json()).goals as Array<{ title: string }>).map((g) => g.title);
    expect(goals).toEqual(['Delegate two projects']);
    const memories = JSON.stringify(await (await page.request.get('/api/memories')).json());
    expect(memories).toContain('Jordan leads the mobile team.');
    expect(memories).not.toContain('Elena Rossi');
    expect((await (await page.request.get('/api/rehearsals')).json()).rehearsals).toEqual([]);

    // And what the screens show.
    await page.goto('/settings');
    await expect(page.getByRole('textbox', { name: settingsTexts.fullName, exact: true })).toHaveValue('Sam Rivera');
    await page.goto('/knowledge-base');
    await expect(page.getByRole('textbox', { name: knowledgeBaseTexts.company, exact: false }).first()).toHaveValue('Sunrise Bakery');
    await page.goto('/memory');
    await expect(page.getByText('Jordan leads the mobile team.')).toBeVisible();
    await expect(page.getByText(/Elena Rossi/)).toHaveCount(0);
    if (size.name === 'desktop') {
      const recent = page.getByRole('region', { name: chatTexts.recentChats });
      await page.goto('/app');
      await expect(recent.getByText(/I want to delegate more/)).toBeVisible({ timeout: 60_000 });
      for (const title of sampleChatTitles) await expect(recent.getByText(title, { exact: true })).toHaveCount(0);
    }
    await context.close();
  });
}

/** The router's routes as the build lists them (the server serves the same list). */
function clientRoutes(): string[] {
  return JSON.parse(fs.readFileSync(path.resolve('dist/client/prerendered/routes.json'), 'utf8')) as string[];
}

async function directLoad(page: Page, route: string) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(route);
  expect(response?.status(), route).toBe(200);
  await page.waitForLoadState('networkidle');
  // Hydration and the route's first data have had their turn.
  await expect(page.locator('#root')).not.toBeEmpty();
  return errors;
}

test('every client route loads directly and on reload with 200 and no console error', async ({ page, context }) => {
  await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const { rehearsals } = (await (await page.request.get('/api/rehearsals')).json()) as { rehearsals: Array<{ id: number }> };
  expect(rehearsals.length).toBeGreaterThan(0);
  const routes = clientRoutes().map((route) => route.replace('$id', String(rehearsals[0]!.id)));
  expect(routes).toContain(`/rehearsals/${rehearsals[0]!.id}`);
  for (const route of routes) {
    const errors = await directLoad(page, route);
    expect(errors, route).toEqual([]);
    page.removeAllListeners('console');
    page.removeAllListeners('pageerror');
  }
  // A reload of the rehearsal, as the issue found it: 200 and a clean hydration.
  const rehearsal = `/rehearsals/${rehearsals[0]!.id}`;
  await directLoad(page, rehearsal);
  page.removeAllListeners('console');
  page.removeAllListeners('pageerror');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});
