import { expect, test, type Page } from '@playwright/test';
import { chatTexts, memoryTexts, writingStyleTexts as texts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, messageInput, userMessages } from './support/chatPage.js';
import { holdRequests } from './support/holdRequests.js';

// Writing style with Microsoft mail connected: the user connects by manual token to the Graph
// fake, whose mailboxes hold the sent-mail corpus (test/fakes/graph/seeded-cli.ts: e2e-formal,
// e2e-friendly, e2e-terse, e2e-bullets, and e2e-few with 3 emails), then analyses and writes.

let counter = 0;
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  counter += 1;
  const account = { username: `wsm${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`, password: 'style-secret', fullName: 'Riley Writer' };
  const res = await page.request.post('/api/auth/register', { data: account, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

async function connectMail(page: Page, baseURL: string | undefined, token: string) {
  const res = await page.request.post('/api/auth/microsoft/manual-token', { data: { token, service: 'microsoft_email' }, headers: { origin: baseURL ?? '' } });
  expect(res.status(), await res.text()).toBe(200);
}

async function analyzeByApi(page: Page, baseURL: string | undefined) {
  const res = await page.request.post('/api/writing-analysis/analyze-style', { data: {}, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(200);
}

function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title });
}

function section(page: Page, title: string) {
  return page.getByRole('region', { name: title });
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await context.addInitScript(() => {
    window.localStorage.setItem('hasSeenOnboarding', 'true');
    // The review reminder rolls its dice once per session: these tests decide it themselves.
    window.sessionStorage.setItem('writingStyleReminderDecided', '1');
  });
  await signUpFreshUser(page, baseURL);
});

test('analyse the sent mail, then refresh the analysis after writing differently', async ({ page, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-formal');
  await page.goto('/writing-style-analysis');
  await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();

  await page.getByRole('button', { name: texts.analyze }).click();

  await expect(toast(page, texts.completeTitle)).toContainText(texts.completeBody(12));
  await expect(page.getByRole('heading', { name: texts.profileTitle })).toBeVisible();
  await expect(section(page, texts.sections.greeting)).toContainText('Dear [Name],');
  await expect(section(page, texts.sections.signOff)).toContainText('Kind regards,');
  await expect(section(page, texts.sections.tone)).toContainText('Formal and professional');
  await expect(section(page, texts.sections.tone)).toContainText(texts.toneFromMarkers);
  await expect(section(page, texts.sections.length)).toContainText(/^.*Medium: about \d+ words/);
  await expect(section(page, texts.sections.commonPhrases)).toContainText('please do not hesitate to contact me');
  await expect(section(page, texts.sections.commonPhrases)).not.toContainText(/widget|synergy/);
  await expect(page.getByText(`${texts.lastUpdated}:`)).toBeVisible();
  const mirrored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('writing_style_data') ?? 'null'));
  expect(mirrored).toMatchObject({ greeting: 'Dear [Name],', signOff: 'Kind regards,', emailsAnalyzed: 12 });

  // The user now sends mail from another account that writes in a friendly way.
  await connectMail(page, baseURL, 'e2e-friendly');
  await page.reload();
  await page.getByRole('button', { name: texts.refreshAnalysis }).click();

  await expect(section(page, texts.sections.greeting)).toContainText('Hi team,');
  await expect(section(page, texts.sections.signOff)).toContainText('Cheers,');
  const refreshed = await page.evaluate(() => JSON.parse(window.localStorage.getItem('writing_style_data') ?? 'null'));
  expect(Date.parse(refreshed.lastUpdated)).toBeGreaterThan(Date.parse(mirrored.lastUpdated));
});

test('fewer than 5 sent emails: Not Enough Emails, and no profile', async ({ page, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-few');
  await page.goto('/writing-style-analysis');

  await page.getByRole('button', { name: texts.startAnalysis }).click();

  await expect(toast(page, texts.notEnoughTitle)).toContainText(texts.notEnoughBody);
  await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();
});

test('the style panel in chat summarises the profile, and generates and copies an email', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await connectMail(page, baseURL, 'e2e-friendly');
  await analyzeByApi(page, baseURL);
  await page.goto('/app?new=true');
  await messageInput(page).fill('Can you generate an email for my team?');
  await messageInput(page).press('Enter');
  await expect(coachMessages(page).last()).toBeVisible();

  const panel = page.getByRole('region', { name: texts.panelTitle });
  await expect(panel.getByRole('tab', { name: texts.tabStyle })).toHaveAttribute('aria-selected', 'true');
  await expect(panel).toContainText('Hi team,');
  await expect(panel).toContainText('Cheers,');
  await expect(panel.getByRole('link', { name: texts.edit })).toHaveAttribute('href', '/writing-style-analysis');

  await panel.getByRole('tab', { name: texts.tabTemplates }).click();
  const generate = panel.getByRole('button', { name: texts.generate });
  await expect(generate).toBeDisabled();
  await panel.getByLabel(texts.topicLabel).press('Enter');
  await expect(toast(page, texts.promptRequiredTitle)).toContainText(texts.promptRequiredBody);

  await panel.getByLabel(texts.topicLabel).fill('Moving the retro to Thursday');
  await generate.click();

  const email = panel.getByRole('region', { name: texts.generatedLabel });
  await expect(email).toContainText('Subject: Moving the retro to Thursday');
  await expect(email).toContainText('Hi team,');
  await expect(email).toContainText('Cheers,');
  await expect(email).toContainText(texts.offlineWriterNote);

  await email.getByRole('button', { name: texts.copy }).click();
  await expect(email.getByRole('button', { name: texts.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Hi team,');
  await expect(email.getByRole('button', { name: texts.copy, exact: true })).toBeVisible({ timeout: 4000 });
});

test('the Writing Style Review reminder offers a refresh when mail is connected', async ({ page, context, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-bullets');
  await context.addInitScript(() => {
    window.sessionStorage.removeItem('writingStyleReminderDecided');
    Math.random = () => 0.1; // within the 30% chance
  });
  await page.goto('/app');

  const dialog = page.getByRole('dialog', { name: texts.reminderTitle });
  await expect(dialog).toContainText(`${texts.lastUpdated}: ${texts.never}`);
  await dialog.getByRole('button', { name: texts.refreshProfile }).click();

  await expect(toast(page, texts.updatedTitle)).toBeVisible();
  await expect(dialog).toBeHidden();
  const mirrored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('writing_style_data') ?? 'null'));
  expect(mirrored).toMatchObject({ greeting: 'Hello all,', signOff: 'Best,' });
});

test('the reminder stays away outside its chance, and Not now closes it', async ({ page, context, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-bullets');
  await context.addInitScript(() => {
    window.sessionStorage.removeItem('writingStyleReminderDecided');
    Math.random = () => 0.95;
  });
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: /AI Coach Chat/ })).toBeVisible();
  await expect(page.getByRole('dialog', { name: texts.reminderTitle })).toHaveCount(0);

  await context.addInitScript(() => {
    window.sessionStorage.removeItem('writingStyleReminderDecided');
    Math.random = () => 0.2;
  });
  await page.reload();
  const dialog = page.getByRole('dialog', { name: texts.reminderTitle });
  await dialog.getByRole('button', { name: texts.notNow }).click();
  await expect(dialog).toBeHidden();
});

test('the reminder never opens over another dialog the user has open', async ({ page, context, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-bullets');
  await context.addInitScript(() => {
    window.sessionStorage.removeItem('writingStyleReminderDecided');
    Math.random = () => 0.1; // within the 30% chance
  });
  // The profile's read is held until the search dialog is open, as on a slow connection.
  const release = await holdRequests(page, (url) => url.pathname.includes('writingStyle.get'));
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: /AI Coach Chat/ })).toBeVisible();
  await page.getByRole('button', { name: /Search chats/ }).click();
  const search = page.getByRole('dialog', { name: memoryTexts.searchTitle });
  await expect(search).toBeVisible();

  release();
  // The dice are rolled once the profile is read (and within the chance here): the reminder stays away.
  await expect.poll(() => page.evaluate(() => window.sessionStorage.getItem('writingStyleReminderDecided'))).toBe('1');
  await expect(page.getByRole('dialog', { name: texts.reminderTitle })).toHaveCount(0);
  await expect(search).toBeVisible();
});

test('the coach drafts an email in the user\'s style when asked', async ({ page, baseURL }) => {
  await connectMail(page, baseURL, 'e2e-friendly');
  await analyzeByApi(page, baseURL);
  await page.goto('/app?new=true');
  await expect(coachMessages(page).first()).toBeVisible(); // the greeting

  for (const answer of ['Help me write an email', 'The team', 'I want them to review the launch plan by Friday', 'none', 'Friendly']) {
    // The thread keeps only the rows near the view in the page, so each step waits for a new last
    // reply rather than counting every message.
    const before = await coachMessages(page).last().textContent();
    await messageInput(page).fill(answer);
    await messageInput(page).press('Enter');
    await expect(userMessages(page).last()).toContainText(answer);
    await expect.poll(() => coachMessages(page).last().textContent(), { timeout: 15_000 }).not.toBe(before);
    await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('button', { name: chatTexts.stop })).toHaveCount(0);
  }

  const draft = coachMessages(page).last();
  await expect(draft).toContainText('Hi team,');
  await expect(draft).toContainText('Cheers,');
});

// The failures of an analysis in the product spec's error catalogue on the page, each by its condition: the sent mail is
// read for real from the Graph fake; the failing answer is put in the way of one call.
test.describe('a failed analysis on the page', () => {
  test.slow();
  // The toast with this exact title (case included) and text; the one before it may still be fading out.
  const toastWith = (page: Page, title: string, text: string) =>
    page.getByRole('alert').filter({ has: page.getByText(title, { exact: true }) }).filter({ hasText: text });

  test('an answer that is not JSON: "Analysis failed" with "{status}: {body}"; a refusal in JSON: "Analysis Failed" with its message', async ({ page, baseURL }) => {
    await connectMail(page, baseURL, 'e2e-formal');
    await page.goto('/writing-style-analysis');
    const analyze = page.getByRole('button', { name: texts.analyze });

    // A proxy's error page instead of the analysis.
    await page.route('**/trpc/writingStyle.analyze**', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: 'Bad gateway' }));
    await analyze.click();
    await expect(toastWith(page, texts.analysisFailedTitle, '502: Bad gateway')).toBeVisible();
    await expect(toastWith(page, texts.failedTitle, '502')).toHaveCount(0);

    // The same for the count of sent emails, the step before.
    await page.unroute('**/trpc/writingStyle.analyze**');
    await page.route('**/trpc/writingStyle.sentEmails**', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Mail is resting' }));
    await analyze.click();
    await expect(toastWith(page, texts.analysisFailedTitle, '503: Mail is resting')).toBeVisible();
    await page.unroute('**/trpc/writingStyle.sentEmails**');

    // The server's own refusal (JSON) is not that: its title and message.
    await page.route('**/trpc/writingStyle.analyze**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify([{ error: { message: 'The analysis could not finish', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: 'writingStyle.analyze' } } }]),
      }),
    );
    await analyze.click();
    await expect(toastWith(page, texts.failedTitle, 'The analysis could not finish')).toBeVisible();
    await expect(toastWith(page, texts.analysisFailedTitle, 'The analysis could not finish')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();
  });

  test('a failure that is no answer at all: "Error" / "An unexpected error occurred"; no server: "Could not connect to the server"', async ({ page, baseURL }) => {
    await connectMail(page, baseURL, 'e2e-formal');
    await page.goto('/writing-style-analysis');
    const analyze = page.getByRole('button', { name: texts.analyze });

    // A success the page cannot use (no profile in it): the page's own code throws.
    await page.route('**/trpc/writingStyle.analyze**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([{ result: { data: { success: true } } }]) }));
    await analyze.click();
    await expect(toastWith(page, texts.errorTitle, texts.unexpected)).toBeVisible();
    await expect(toastWith(page, texts.errorTitle, texts.serverUnreachable)).toHaveCount(0);
    await page.unroute('**/trpc/writingStyle.analyze**');

    // The server not reached at all is said differently.
    await page.route('**/trpc/writingStyle.analyze**', (route) => route.abort('connectionrefused'));
    await analyze.click();
    await expect(toastWith(page, texts.errorTitle, texts.serverUnreachable)).toBeVisible();
    await expect(toastWith(page, texts.errorTitle, texts.unexpected)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: texts.noAnalysisTitle })).toBeVisible();
  });
});
