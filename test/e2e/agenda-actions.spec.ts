import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { chatTexts, meetingsTexts } from '../../src/shared/texts/index.js';
import { coachMessages, messageInput, replyFinished, say } from './support/chatPage.js';

// The agenda buttons under a coach's reply, for a demo visitor (the sample week): Modify changes
// the agenda the coach wrote, and in a chat that prepares no meeting, save and email ask which of
// the week's meetings the agenda is for, say what the calendar file is, and send the agenda itself.

test.describe.configure({ timeout: 120_000 });

const shots = '/work/coord/shots';
const phone = { width: 390, height: 844 };

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title }).last();
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/agenda-${name}-desktop.png` });
  const size = page.viewportSize();
  await page.setViewportSize(phone);
  await page.screenshot({ path: `${shots}/agenda-${name}-phone.png` });
  if (size) await page.setViewportSize(size);
}

/** A plain chat with the coach's meeting plan: an agenda that belongs to no meeting. */
async function plainAgenda(page: Page) {
  await page.goto('/app?new=true');
  await say(page, 'Help me prepare a meeting agenda');
  await say(page, 'Weekly sync with my team: agree the priorities for the week');
  await say(page, '45 minutes');
  await say(page, 'My three direct reports');
  const reply = await say(page, 'Release 4.2 status, iOS release, blockers');
  await expect(reply).toContainText('Here is your meeting agenda');
  return reply;
}

test('Modify edits the prepared agenda', async ({ page }) => {
  await page.goto('/meetings');
  await page.getByRole('article', { name: 'Weekly team sync' }).getByRole('button', { name: `${meetingsTexts.prepare}: Weekly team sync` }).click();
  await expect(page).toHaveURL(/\/app\?chat=\d+/);
  await replyFinished(page);
  const draft = coachMessages(page).last();
  await expect(draft).toContainText('agenda for Weekly team sync');
  await expect(draft.getByRole('listitem').filter({ hasText: 'Release 4.2 status' })).toBeVisible();

  await draft.getByRole('button', { name: chatTexts.agendaButtons[2] }).click();
  await expect(messageInput(page)).toHaveValue(chatTexts.modifyAgendaPrefix);
  await messageInput(page).pressSequentially('add Hiring plan');
  await messageInput(page).press('Enter');
  await replyFinished(page);
  const edited = coachMessages(page).last();

  // The same meeting's agenda with the topic added, not the meeting-plan questions from the start.
  await expect(edited).toContainText('agenda for Weekly team sync');
  await expect(edited).not.toContainText('Meeting plan · Step');
  const items = edited.getByRole('listitem');
  await expect(items).toHaveText([/^Welcome and the outcome we need/, /^Release 4\.2 status/, /^The deployment-frequency goal/, /^Blockers and asks/, /^Hiring plan/, /^Decisions, owners and next steps/]);
  await shoot(page, 'modified');

  // Its buttons act on the prep chat's meeting, as the draft's did.
  await edited.getByRole('button', { name: chatTexts.agendaButtons[0] }).click();
  await page.getByRole('dialog', { name: meetingsTexts.confirmSaveTitle }).getByRole('button', { name: meetingsTexts.confirm }).click();
  await expect(toast(page, meetingsTexts.sampleActionTitle)).toContainText(meetingsTexts.sampleNotSaved);
});

test('agenda items keep their capital letters', async ({ page }) => {
  await page.goto('/meetings');
  await page.getByRole('article', { name: 'Weekly team sync' }).getByRole('button', { name: `${meetingsTexts.prepare}: Weekly team sync` }).click();
  await replyFinished(page);
  // The invite says "Release 4.2 status, the deployment-frequency goal, blockers and asks".
  const items = coachMessages(page).last().getByRole('listitem');
  await expect(items.filter({ hasText: 'deployment-frequency' })).toHaveText(/^The deployment-frequency goal/);
  await expect(items.filter({ hasText: 'asks' })).toHaveText(/^Blockers and asks/);

  // A word's own capitals stay as typed ("iOS", not "IOS").
  const plain = await plainAgenda(page);
  await expect(plain.getByRole('listitem').filter({ hasText: /ios release/i })).toHaveText(/^iOS release/);
});

test('save to the invite in a chat with no meeting asks which meeting, and says what the download is', async ({ page }) => {
  const reply = await plainAgenda(page);
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));

  await reply.getByRole('button', { name: chatTexts.agendaButtons[0] }).click();
  const dialog = page.getByRole('dialog', { name: chatTexts.agendaPickTitle });
  const week = dialog.getByRole('group', { name: chatTexts.agendaPickListLabel });
  await expect(week.getByRole('button', { name: /^Weekly team sync, / })).toBeVisible();
  await expect(week.getByRole('button', { name: /^Sprint retrospective, / })).toBeVisible();
  await expect(dialog).toContainText(/a new event on \w+ \d{1,2} \w+, 10:00, 45 minutes, with this agenda in its description/);
  await expect(dialog).toContainText(chatTexts.agendaFileName);
  expect(downloads).toEqual([]);
  await shoot(page, 'save-pick');

  // A meeting chosen: its invite takes the agenda (a sample's says nothing was sent).
  await week.getByRole('button', { name: /^Weekly team sync, / }).click();
  await expect(toast(page, meetingsTexts.sampleActionTitle)).toContainText(meetingsTexts.sampleNotSaved);
  await expect(dialog).toBeHidden();
  expect(downloads).toEqual([]);

  // Or the calendar file, asked for by name: the agenda itself in its description.
  await reply.getByRole('button', { name: chatTexts.agendaButtons[0] }).click();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: chatTexts.agendaPickDownload }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(chatTexts.agendaFileName);
  const ics = (await fs.readFile(await download.path(), 'utf8')).replace(/\r\n /g, '');
  expect(ics).toContain('BEGIN:VEVENT');
  expect(ics).toContain('iOS release');
  expect(ics).not.toContain('Here is your meeting agenda');
});

test('email this agenda fills the meeting’s attendees, and its body is the agenda', async ({ page }) => {
  const reply = await plainAgenda(page);
  await reply.getByRole('button', { name: chatTexts.agendaButtons[1] }).click();
  const dialog = page.getByRole('dialog', { name: chatTexts.agendaPickTitle });
  const week = dialog.getByRole('group', { name: chatTexts.agendaPickListLabel });
  const sync = week.getByRole('link', { name: /^Weekly team sync, / });
  await expect(sync).toBeVisible();
  await shoot(page, 'email-pick');

  const href = (await sync.getAttribute('href')) ?? '';
  const [address, query] = href.replace(/^mailto:/, '').split('?') as [string, string];
  expect(address.split(',')).toEqual(['priya.shah@northwind.example', 'marcus.chen@northwind.example', 'tom.becker@northwind.example']);
  const params = new URLSearchParams(query);
  expect(params.get('subject')).toBe(meetingsTexts.agendaSubject('Weekly team sync'));
  const body = params.get('body') ?? '';
  expect(body.startsWith('Weekly sync with my team: agree the priorities for the week (45 minutes)\r\n\r\n1. Welcome')).toBe(true);
  expect(body).toContain('iOS release');
  expect(body).not.toContain('Here is your meeting agenda');
  expect(body).not.toContain('Send the agenda');

  // Without a meeting, the draft is the agenda too, addressed by the user.
  const draft = (await dialog.getByRole('link', { name: chatTexts.agendaPickDraft }).getAttribute('href')) ?? '';
  expect(draft).toMatch(/^mailto:\?subject=/);
  expect(new URLSearchParams(draft.split('?')[1]).get('body')).not.toContain('Here is your meeting agenda');
});
