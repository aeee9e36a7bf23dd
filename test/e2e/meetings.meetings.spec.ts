import { expect, test, type Page } from '@playwright/test';
import { chatTexts, meetingsTexts, microsoftTexts } from '../../src/shared/texts/index.js';
import { ports } from '../../playwright.config.js';
import { connectWithToken, signUpFresh } from './support/microsoft.js';

// Meetings end to end against the Graph and Entra fakes (one shared calendar seeded with a daily
// series with one cancelled occurrence, a cancelled event, a meeting organised by someone else;
// pages of 2; access tokens that are always about to expire, so every read refreshes first).
const control = `http://127.0.0.1:${ports.meetingsControl}`;
type Stats = { refreshes: number; scopes: string[]; graph: Array<{ method: string; path: string; status: number; prefer: string | null }>; sentMail: Array<{ subject: string; to: string[] }> };
const stats = async (page: Page): Promise<Stats> => (await page.request.get(`${control}/stats`)).json();

test.describe.configure({ mode: 'serial' });

async function connectCalendar(page: Page) {
  await page.goto('/integrations');
  const card = page.getByRole('group', { name: 'Microsoft Calendar' });
  await card.getByRole('button', { name: 'Connect Microsoft Calendar' }).click();
  await page.getByRole('menuitem', { name: microsoftTexts.signInWithCode }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Microsoft Calendar with a code' });
  await expect(dialog.getByText(microsoftTexts.deviceSuccess)).toBeVisible({ timeout: 10_000 });
  await expect(card).toContainText(microsoftTexts.connected);
}

test('the Meetings page: connect, the week (series expanded, cancelled left out, paged, throttled, refreshed), prepare with an agenda, save and email it, and reconnect when the token is revoked', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  // With Microsoft connected the writing-style reminder may open (SPEC: about 30%); it is not ours,
  // so its dice are taken as rolled. (A locator handler that closed it raced the navigation away
  // from the chat: the dialog went with the page and the handler waited for its button.)
  await page.addInitScript(() => window.sessionStorage.setItem('writingStyleReminderDecided', '1'));
  await signUpFresh(page, baseURL!, 'meet');
  await page.goto('/app');
  await page.getByRole('link', { name: meetingsTexts.navLabel, exact: true }).first().click();
  await expect(page).toHaveURL(/\/meetings$/);
  await expect(page.getByText(meetingsTexts.connectTitle)).toBeVisible();

  await connectCalendar(page);
  expect((await stats(page)).scopes.at(-1)).toContain('Calendars.ReadWrite');
  const refreshesBefore = (await stats(page)).refreshes;
  await page.goto('/meetings');
  const quarterly = page.getByRole('article', { name: 'Quarterly planning' });
  await expect(quarterly).toBeVisible({ timeout: 30_000 });
  await expect(quarterly).toContainText('Priya Patel');
  await expect(page.getByRole('article', { name: 'Team sync' })).toHaveCount(2);
  await expect(page.getByText('Cancelled offsite')).toHaveCount(0);
  const afterRead = await stats(page);
  expect(afterRead.graph.filter((r) => r.path === '/v1.0/me/calendarView').length).toBeGreaterThanOrEqual(3);
  expect(afterRead.refreshes).toBeGreaterThan(refreshesBefore);

  // Throttled once: the page waits the Retry-After and shows the meetings all the same.
  await page.request.post(`${control}/throttle`);
  await page.getByRole('combobox', { name: meetingsTexts.daysLabel }).click();
  await page.getByRole('option', { name: meetingsTexts.days(14) }).click();
  await expect(page.getByRole('article', { name: 'Vendor call' })).toBeVisible({ timeout: 30_000 });
  expect((await stats(page)).graph.some((r) => r.status === 429)).toBe(true);

  // Prepare: a prep chat opens with an agenda written from the invite (the offline coach). Here the
  // chat's meeting is told late: a click on the agenda's buttons before then still acts on the
  // meeting (it used to download a calendar file, the plain chat's action).
  let prepDelayMs = 3000;
  await page.route(
    (url) => url.pathname.includes('meetings.prepOfChat'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, prepDelayMs));
      await route.continue();
    },
  );
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await quarterly.getByRole('button', { name: `${meetingsTexts.prepare}: Quarterly planning` }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  const reply = page.getByRole('article').filter({ hasText: 'Hiring plan' }).last();
  await expect(reply).toContainText('agenda', { timeout: 30_000 });
  await expect(reply).toContainText('Budget for Q1');
  const actions = page.getByRole('group', { name: chatTexts.agendaActionsLabel }).last();
  await actions.getByRole('button', { name: chatTexts.agendaButtons[0] }).click();
  await page.getByRole('dialog', { name: meetingsTexts.confirmSaveTitle }).getByRole('button', { name: meetingsTexts.confirm }).click();
  await expect(page.getByText(meetingsTexts.agendaSavedTitle)).toBeVisible();
  expect(downloads).toEqual([]);
  prepDelayMs = 0;
  expect((await stats(page)).graph.some((r) => r.method === 'PATCH' && r.path.startsWith('/v1.0/me/events/') && r.status === 200)).toBe(true);

  // Emailing needs Microsoft Email (Mail.Send): connected with a token, then sent to the others.
  const chatUrl = page.url();
  await connectWithToken(page);
  await page.goto(chatUrl);
  await page.getByRole('group', { name: chatTexts.agendaActionsLabel }).last().getByRole('button', { name: chatTexts.agendaButtons[1] }).click();
  await page.getByRole('dialog', { name: meetingsTexts.confirmEmailTitle }).getByRole('button', { name: meetingsTexts.confirm }).click();
  await expect(page.getByText(meetingsTexts.agendaEmailedTitle)).toBeVisible();
  const sent = (await stats(page)).sentMail.at(-1)!;
  expect(sent.subject).toBe('Agenda: Quarterly planning');
  expect(sent.to).toEqual(['priya.patel@contoso.example', 'sam.lee@contoso.example']);

  // Back on the page the meeting opens its prep; a revoked sign-in asks to reconnect.
  await page.goto('/meetings');
  await expect(page.getByRole('article', { name: 'Quarterly planning' }).getByRole('button', { name: `${meetingsTexts.openPrep}: Quarterly planning` })).toBeVisible({ timeout: 30_000 });
  await page.request.post(`${control}/revoke`);
  await page.getByRole('combobox', { name: meetingsTexts.daysLabel }).click();
  await page.getByRole('option', { name: meetingsTexts.days(3) }).click();
  await expect(page.getByRole('alert').filter({ hasText: meetingsTexts.errorTitle })).toContainText(microsoftTexts.reconnect, { timeout: 30_000 });
});

test('on a phone the Meetings page fits the screen', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpFresh(page, baseURL!, 'meetphone');
  await connectCalendar(page);
  await page.goto('/meetings');
  await expect(page.getByRole('article', { name: 'Quarterly planning' })).toBeVisible({ timeout: 30_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('meetings-phone.png'), fullPage: true });
});
