import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { organisationTexts, programTexts } from '../../src/shared/texts/index.js';

// The organisation's console at /admin: the admin (named by ORG_ADMINS on this server) sees the
// members with their state and the seats, creates a SCIM token shown once, Entra-like provisioning
// with it shows the new member, and revoking it locks the provisioning out. An admin invites people
// by CSV and sees them invited, and the action in the audit log. A member is refused.

const texts = organisationTexts.console;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('an admin sees members and seats, creates a SCIM token shown once, and revoking it refuses the provisioning', async ({ page, baseURL }) => {
  const registered = await page.request.post('/api/auth/register', { data: { username: 'e2e-admin', password: 'secret-pass', fullName: 'Erin Admin' } });
  // A retry finds the admin registered already.
  if (registered.status() !== 201) expect((await page.request.post('/api/auth/login', { data: { username: 'e2e-admin', password: 'secret-pass' } })).status()).toBe(200);

  await page.goto('/app');
  await page.getByRole('link', { name: texts.navLabel }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: texts.title, level: 1 })).toBeVisible();
  const members = page.getByRole('table', { name: texts.membersHeading });
  await expect(members.getByRole('row', { name: /Erin Admin/ })).toContainText(texts.roles.admin);
  await expect(members.getByRole('row', { name: /Erin Admin/ })).toContainText(texts.states.active);
  await expect(page.getByText(/in use, no limit/)).toBeVisible();

  await page.getByRole('button', { name: texts.createToken }).click();
  const dialog = page.getByRole('dialog', { name: texts.tokenCreated });
  await expect(dialog.getByText(texts.tokenShownOnce)).toBeVisible();
  const token = (await dialog.getByLabel(texts.tokenLabel).textContent())!.trim();
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: texts.done }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  const tokenItem = page.getByRole('list', { name: texts.tokensHeading }).getByRole('listitem', { name: token.slice(0, 11) });
  await expect(tokenItem).toBeVisible();

  // The identity provider provisions someone with the token.
  const scim = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' } });
  const userName = `pat.${Date.now().toString(36)}@contoso.example`;
  const created = await scim.post('/scim/v2/Users', { data: { userName, displayName: 'Pat Provisioned', active: true, emails: [{ value: userName, primary: true }] } });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(members.getByRole('row', { name: /Pat Provisioned/ })).toContainText(texts.provisioned);
  await page.screenshot({ path: test.info().outputPath('admin-console.png'), fullPage: true });
  // Axe finds nothing critical, serious or moderate on the console.
  const results = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  const problems = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.impact === 'moderate').map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);

  await tokenItem.getByRole('button', { name: texts.revokeLabel(token.slice(0, 11)) }).click();
  await expect(page.getByText(texts.revokedToast)).toBeVisible();
  await expect(tokenItem).toContainText(texts.tokenRevoked);
  expect((await scim.get('/scim/v2/Users')).status()).toBe(401);
});

test('an admin invites people by CSV through the file picker, sees the result, the invited members and the audit log', async ({ page }) => {
  const registered = await page.request.post('/api/auth/register', { data: { username: 'e2e-admin', password: 'secret-pass', fullName: 'Erin Admin' } });
  if (registered.status() !== 201) expect((await page.request.post('/api/auth/login', { data: { username: 'e2e-admin', password: 'secret-pass' } })).status()).toBe(200);
  const run = Date.now().toString(36);
  const csv = `email,name,department,manager\numa.${run}@contoso.example,Uma Invited,Sales,erin@contoso.example\nvic.${run}@contoso.example,Vic Invited,,\nnot-an-email,Nobody,,\n`;

  await page.goto('/admin');
  const section = page.getByRole('region', { name: texts.inviteHeading });
  await expect(section.getByText(texts.inviteExample)).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: texts.inviteFile }).click();
  await (await chooser).setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await section.getByRole('button', { name: texts.inviteSubmit }).click();
  await expect(section.getByRole('status')).toContainText(texts.inviteResult(2, 1));
  const skipped = section.getByRole('table', { name: texts.inviteResult(2, 1) });
  await expect(skipped.getByRole('row', { name: /not-an-email/ })).toContainText(organisationTexts.invite.badEmail);

  const members = page.getByRole('table', { name: texts.membersHeading });
  // This run's people, by their addresses: a retry invites its own, and the other tests on this
  // server provision and invite beside it.
  await expect(members.getByRole('row', { name: new RegExp(`Uma Invited uma\\.${run}@`) })).toContainText(texts.states.invited);
  await expect(members.getByRole('row', { name: new RegExp(`Vic Invited vic\\.${run}@`) })).toContainText(texts.states.invited);
  const audit = page.getByRole('table', { name: texts.auditTable });
  const invite = audit.getByRole('row').filter({ hasText: texts.auditActions['members.invite'] }).first();
  await expect(invite).toContainText('Erin Admin');
  await expect(invite).toContainText(`${texts.auditChangeLabels.invited} 2 · ${texts.auditChangeLabels.skipped} 1`);

  // The console scrolls inside the app's frame: the sections are shot where the admin sees them.
  await page.screenshot({ path: test.info().outputPath('admin-console-desktop.png'), fullPage: true });
  await audit.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('admin-console-desktop-audit.png') });
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.impact === 'moderate').map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(audit).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('admin-console-phone-invite.png') });
  await audit.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('admin-console-phone-audit.png') });
});

test('a member has no console: no menu entry, and /admin says it is for admins', async ({ page }) => {
  const username = `member${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  expect((await page.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Mo Member' } })).status()).toBe(201);
  await page.goto('/admin');
  await expect(page.getByText(organisationTexts.adminsOnly)).toBeVisible();
  await expect(page.getByRole('link', { name: texts.navLabel })).toHaveCount(0);
  expect((await page.request.get('/api/admin/members')).status()).toBe(403);
});

test('the console charts how coaching is used, each figure over at least 5 people', async ({ page, baseURL }) => {
  const analytics = organisationTexts.analytics;
  // Five members coach this week (each in their own browser context, through the app's REST paths).
  for (let index = 0; index < 5; index += 1) {
    const person = await playwrightRequest.newContext({ baseURL });
    const username = `coached${Date.now().toString(36)}${index}`;
    expect((await person.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: `Coached ${index}` } })).status()).toBe(201);
    const chat = await (await person.post('/api/chats', { data: { title: 'Feedback' } })).json();
    expect((await person.post(`/api/chats/${chat.id}/messages`, { data: { content: 'How do I give feedback to my team about deadlines?' } })).status()).toBe(201);
    await person.dispose();
  }
  const registered = await page.request.post('/api/auth/login', { data: { username: 'e2e-admin', password: 'secret-pass' } });
  if (registered.status() !== 200) expect((await page.request.post('/api/auth/register', { data: { username: 'e2e-admin', password: 'secret-pass', fullName: 'Erin Admin' } })).status()).toBe(201);

  await page.goto('/admin');
  const section = page.getByRole('region', { name: analytics.heading });
  await expect(section.getByText(analytics.description(5, 12))).toBeVisible();
  const active = section.getByRole('region', { name: analytics.activeHeading });
  await expect(active.getByRole('figure', { name: analytics.activeHeading }).locator('.recharts-bar-rectangle').first()).toBeVisible();
  await active.getByText(analytics.showTable).click();
  const rows = active.getByRole('table', { name: analytics.activeHeading }).getByRole('row');
  // Newest week first: this week's members (at least the five), and a year ago nobody: 'fewer than 5'.
  await expect(rows).toHaveCount(53);
  expect(Number((await rows.nth(1).getByRole('cell').nth(1).textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(5);
  await expect(rows.nth(52).getByRole('cell').nth(1)).toHaveText(analytics.fewerThan(5));
  await expect(section.getByRole('table', { name: analytics.themesHeading }).getByRole('row', { name: new RegExp(analytics.themes.feedback) })).toBeVisible();
  await expect(section.getByRole('region', { name: analytics.sessionsHeading })).toBeVisible();
  await expect(section.getByRole('region', { name: analytics.goalsHeading })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('admin-analytics-phone.png') });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const results = await new AxeBuilder({ page }).include('section[aria-labelledby="analytics-heading"]').analyze();
  const problems = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.impact === 'moderate').map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
});

test('an admin turns a nudge channel and phone calls off in the settings card, and a member sees the channel unavailable', async ({ page, browser }) => {
  const registered = await page.request.post('/api/auth/register', { data: { username: 'e2e-admin', password: 'secret-pass', fullName: 'Erin Admin' } });
  if (registered.status() !== 201) expect((await page.request.post('/api/auth/login', { data: { username: 'e2e-admin', password: 'secret-pass' } })).status()).toBe(200);
  await page.goto('/admin');
  const card = page.getByRole('region', { name: texts.settingsHeading });
  await expect(card).toBeVisible();
  // No OPENAI_REGIONS on this server: no region to choose.
  await expect(card.getByText(texts.modelRegionLabel)).toHaveCount(0);
  try {
    const callChannel = card.getByRole('checkbox', { name: texts.channelNames.call });
    await expect(callChannel).toBeChecked();
    await callChannel.uncheck();
    await card.getByRole('switch', { name: texts.phoneCallsLabel }).uncheck();
    await card.getByRole('button', { name: texts.save }).click();
    await expect(page.getByText(texts.saved)).toBeVisible();
    expect(await (await page.request.get('/api/admin/organisation')).json()).toMatchObject({ nudgeChannels: ['app', 'email', 'push'], phoneCalls: false });
    await page.reload();
    await expect(page.getByRole('region', { name: texts.settingsHeading }).getByRole('checkbox', { name: texts.channelNames.call })).not.toBeChecked();

    const member = await browser.newContext();
    await member.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
    const memberPage = await member.newPage();
    const username = `nudged${Date.now().toString(36)}`;
    expect((await memberPage.request.post('/api/auth/register', { data: { username, password: 'secret-pass', fullName: 'Nia Nudged' } })).status()).toBe(201);
    await memberPage.goto('/settings?tab=notifications');
    const call = memberPage.getByRole('switch', { name: /Phone call/ });
    await expect(call).toBeDisabled();
    await expect(memberPage.getByText(organisationTexts.member.channelTurnedOff)).toBeVisible();
    await expect(memberPage.getByRole('switch', { name: 'Push notification', exact: true })).toBeEnabled();
    await member.close();
  } finally {
    expect((await page.request.patch('/api/admin/organisation', { data: { nudgeChannels: ['app', 'email', 'push', 'call'], phoneCalls: true } })).status()).toBe(200);
  }
});

test('an admin starts a program for a department, sees it running with its progress under the floor, and ends it', async ({ page }) => {
  const programs = programTexts;
  const login = await page.request.post('/api/auth/login', { data: { username: 'e2e-admin', password: 'secret-pass' } });
  if (login.status() !== 200) expect((await page.request.post('/api/auth/register', { data: { username: 'e2e-admin', password: 'secret-pass', fullName: 'Erin Admin' } })).status()).toBe(201);
  // Five people of a department of its own, invited by CSV (the app's path for it).
  const department = `Support ${Date.now().toString(36)}`;
  const csv = ['email,name,department', ...[0, 1, 2, 3, 4].map((i) => `p${i}.${department.replace(' ', '')}@contoso.example,Person ${i},${department}`)].join('\n');
  expect((await page.request.post('/api/admin/invites', { data: { csv } })).status()).toBe(200);

  await page.goto('/admin');
  const section = page.getByRole('region', { name: programs.heading });
  await section.getByRole('button', { name: programs.start }).click();
  const dialog = page.getByRole('dialog', { name: programs.startTitle });
  await dialog.getByLabel(programs.nameLabel).fill('First-time managers, 8 weeks');
  await dialog.getByLabel(programs.focusLabel).fill('Delegating well and running one-to-ones');
  await dialog.getByText(programs.departmentOption, { exact: true }).click();
  await dialog.getByRole('combobox', { name: programs.departmentLabel }).click();
  await page.getByRole('option', { name: department }).click();
  await dialog.getByRole('button', { name: programs.submit, exact: true }).click();
  await expect(page.getByText(programs.started)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const item = section.getByRole('listitem', { name: 'First-time managers, 8 weeks' }).first();
  await expect(item).toContainText(programs.states.running);
  await expect(item).toContainText(programs.weekOf(1, 8));
  await expect(item).toContainText(programs.members(5));
  await expect(item).toContainText(programs.forDepartment(department));
  // Nobody has coached yet: week 1's figures are 'fewer than 5'.
  await expect(item.getByRole('table').getByRole('row').nth(1)).toContainText(organisationTexts.analytics.fewerThan(5));
  await item.getByRole('button', { name: programs.endLabel('First-time managers, 8 weeks') }).click();
  await expect(page.getByText(programs.ended)).toBeVisible();
  await expect(item).toContainText(programs.states.ended);
});
