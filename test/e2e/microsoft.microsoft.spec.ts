import { expect, test } from '@playwright/test';
import { microsoftTexts } from '../../src/shared/texts/index.js';
import { connectWithToken, signUpFresh } from './support/microsoft.js';

// Microsoft 365 in Chromium against the Graph and Entra ID fakes (test/fakes/microsoft-cli.ts).

test.beforeEach(async ({ page, baseURL }) => {
  await signUpFresh(page, baseURL!);
});

test('the connect page leads with the sign-in; a pasted token (the advanced way) connects Microsoft Email, and the sidebar shows the badge', async ({ page }) => {
  await page.goto('/microsoft-manual-auth?service=Microsoft%20Email');
  await expect(page.getByRole('heading', { name: 'Connect Microsoft Email' })).toBeVisible();
  // Sign-in first; the token form stays folded away until asked for.
  await expect(page.getByRole('button', { name: microsoftTexts.signInWithBrowser })).toBeVisible();
  await expect(page.getByText(microsoftTexts.signInLead)).toBeVisible();
  await expect(page.getByText(microsoftTexts.connectDescription)).toBeHidden();
  await expect(page.getByRole('textbox', { name: microsoftTexts.tokenLabel })).toBeHidden();
  const advanced = page.getByRole('button', { name: microsoftTexts.advancedToken });
  await expect(advanced).toHaveAttribute('aria-expanded', 'false');
  await advanced.click();
  await expect(advanced).toHaveAttribute('aria-expanded', 'true');
  const submit = page.getByRole('button', { name: microsoftTexts.connectWithToken });
  await expect(submit).toBeDisabled();

  await page.getByRole('textbox', { name: microsoftTexts.tokenLabel }).fill('not-a-known-token');
  await submit.click();
  await expect(page.getByRole('alert')).toContainText(microsoftTexts.tokenRefused);

  await page.getByRole('textbox', { name: microsoftTexts.tokenLabel }).fill(`  <span>e2e-${Date.now()}</span> `);
  await submit.click();
  await expect(page.getByRole('status')).toContainText('alex.morgan@contoso.example');
  await expect(page.getByRole('link', { name: microsoftTexts.goToDashboard })).toBeVisible();

  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: /Integrations/ })).toContainText('1');
});

test('device code: the code, a countdown, approval after two polls, then connected', async ({ page }) => {
  await page.goto('/integrations');
  await expect(page.getByRole('heading', { name: microsoftTexts.integrationsTitle })).toBeVisible();
  const card = page.getByRole('group', { name: 'Microsoft Calendar' });
  await expect(card).toContainText(microsoftTexts.notConnectedBadge);
  await card.getByRole('button', { name: 'Connect Microsoft Calendar' }).click();
  await page.getByRole('menuitem', { name: microsoftTexts.signInWithCode }).click();

  const dialog = page.getByRole('dialog', { name: 'Connect Microsoft Calendar with a code' });
  await expect(dialog.getByLabel('Sign-in code')).toHaveText(/^[A-Z0-9]{8}$/);
  await expect(dialog.getByLabel('Time left', { exact: true })).toHaveText(/^1[45]:\d\d$/);
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await expect(dialog.getByText(microsoftTexts.deviceSuccess)).toBeVisible({ timeout: 10_000 });
  await expect(dialog).toBeHidden({ timeout: 5_000 });
  await expect(page.getByText(microsoftTexts.connectionActiveTitle)).toBeVisible();
  await expect(card).toContainText(microsoftTexts.connected);
});

test('the emails list loads more, selects, and moves to a folder picked in Folder Management', async ({ page }) => {
  await connectWithToken(page);
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Microsoft Emails' }).click();
  await expect(page.getByRole('heading', { name: microsoftTexts.emailsTitle })).toBeVisible();

  const list = page.getByRole('list', { name: microsoftTexts.emailsTab });
  const first = list.getByRole('listitem', { name: 'Sample email 30' });
  await expect(first).toContainText('Jordan Kim <jordan.kim@contoso.example>');
  await expect(first).toContainText(microsoftTexts.important);
  await expect(list.getByRole('listitem', { name: 'Sample email 29' })).toContainText(microsoftTexts.attachment);
  await expect(list.getByRole('listitem')).toHaveCount(25);
  await page.getByRole('button', { name: microsoftTexts.loadMore }).click();
  await expect(list.getByRole('listitem')).toHaveCount(30);
  await expect(page.getByRole('button', { name: microsoftTexts.loadMore })).toBeHidden();

  // Moving needs both a selection and a destination.
  await page.getByRole('button', { name: microsoftTexts.moveSelected }).click();
  await expect(page.getByText(microsoftTexts.cannotMove)).toBeVisible();

  await page.getByRole('checkbox', { name: 'Select email: Sample email 30' }).check();
  await page.getByRole('checkbox', { name: 'Select email: Sample email 27' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();

  await page.getByRole('tab', { name: microsoftTexts.folderManagementTab }).click();
  await page.getByRole('button', { name: 'Use Receipts as destination' }).click();
  await expect(page.getByRole('tab', { name: microsoftTexts.emailsTab })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: microsoftTexts.destinationLabel })).toHaveValue('Receipts');

  await page.getByRole('button', { name: microsoftTexts.moveSelected }).click();
  await expect(page.getByText('Moved 2 of 2 emails')).toBeVisible();
  await expect(page.getByText('0 selected')).toBeVisible();
  await expect(list.getByRole('listitem', { name: 'Sample email 30' })).toHaveCount(0);
  await expect(list.getByRole('listitem', { name: 'Sample email 28' })).toBeVisible();

  await page.getByRole('tab', { name: microsoftTexts.folderManagementTab }).click();
  await expect(page.getByRole('listitem', { name: 'Receipts' })).toContainText('Total 2');
});

test('Manage Folders lists the folders and creates one under a parent', async ({ page }) => {
  await connectWithToken(page);
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Manage Folders' }).click();
  await expect(page.getByRole('heading', { name: microsoftTexts.foldersTitle })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Inbox' })).toContainText('Total 30');
  await expect(page.getByRole('listitem', { name: 'Projects' })).toContainText('Subfolders 1');

  const create = page.getByRole('button', { name: microsoftTexts.createFolder });
  await expect(create).toBeDisabled();
  await page.getByRole('textbox', { name: microsoftTexts.folderName }).fill('   ');
  await expect(create).toBeDisabled();
  await page.getByRole('textbox', { name: microsoftTexts.folderName }).fill('  Hermes  ');
  await page.getByRole('combobox', { name: microsoftTexts.parentFolder }).click();
  await page.getByRole('option', { name: 'Projects' }).click();
  await create.click();
  await expect(page.getByText("Folder 'Hermes' created")).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Hermes' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Projects' })).toContainText('Subfolders 2');
  await expect(page.getByRole('textbox', { name: microsoftTexts.folderName })).toHaveValue('');
});

test('other providers open the coming-soon dialog, which leads to the Microsoft connect page', async ({ page }) => {
  await page.goto('/integrations');
  await page.getByRole('tab', { name: 'Communication' }).click();
  await page.getByRole('group', { name: 'Slack' }).getByRole('button', { name: 'Connect Slack' }).click();
  const dialog = page.getByRole('dialog', { name: 'Slack is coming soon' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: microsoftTexts.close }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('tab', { name: 'Google' }).click();
  await page.getByRole('group', { name: 'Gmail' }).getByRole('button', { name: 'Connect Gmail' }).click();
  await page.getByRole('dialog', { name: 'Gmail is coming soon' }).getByRole('link', { name: microsoftTexts.connectMicrosoftInstead }).click();
  await expect(page).toHaveURL(/\/microsoft-manual-auth$/);
  await expect(page.getByRole('heading', { name: 'Connect Microsoft' })).toBeVisible();
});

test('disconnect deletes the connection: the card, the badge and the mail page show it', async ({ page }) => {
  await connectWithToken(page);
  await page.goto('/integrations');
  const card = page.getByRole('group', { name: 'Microsoft Email' });
  await expect(card).toContainText(microsoftTexts.connected);
  await card.getByRole('button', { name: 'Disconnect Microsoft Email' }).click();
  await expect(card).toContainText(microsoftTexts.notConnectedBadge);
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: /Integrations/ })).not.toContainText('1');
  await page.reload();
  await expect(card).toContainText(microsoftTexts.notConnectedBadge);
  await page.goto('/microsoft-emails');
  await expect(page.getByText(microsoftTexts.connectFirst)).toBeVisible();
});

test('Settings shows the real Microsoft connections with connect and disconnect', async ({ page }) => {
  await connectWithToken(page);
  await page.goto('/settings?tab=integrations');
  const email = page.getByRole('group', { name: 'Microsoft Email' });
  await expect(email).toContainText(microsoftTexts.connected);
  await expect(page.getByRole('group', { name: 'Microsoft Teams' })).toContainText(microsoftTexts.notConnectedBadge);
  await email.getByRole('button', { name: 'Disconnect Microsoft Email' }).click();
  await expect(email).toContainText(microsoftTexts.notConnectedBadge);
});
