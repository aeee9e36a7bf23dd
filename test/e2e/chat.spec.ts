import fs from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { autoChatTitle, chatTexts, commonTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, messageInput, replyFinished, say, userMessages } from './support/chatPage.js';

// The chat page (the product spec's screens, Chat page and Sidebar) as a person uses it, with the built-in
// offline coach. Tests that change state sign up a fresh account first: the demo user (and its
// four sample chats) is shared with every other test.

const sampleTitles = ['Quarterly OKR planning', 'Preparing a difficult conversation', 'Weekly team meeting agenda', 'Career growth with GROW'];

let counter = 0;
function uniqueUsername() {
  counter += 1;
  return `chat${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
}

/** A fresh account, signed in for this page's context (the register call sets the cookie). */
async function signUpFreshUser(page: Page, baseURL: string | undefined) {
  const account = { username: uniqueUsername(), password: 'chat-secret-1', fullName: 'Casey Chat' };
  const res = await page.request.post('/api/auth/register', { data: account, headers: { origin: baseURL ?? '' } });
  expect(res.status()).toBe(201);
}

/** A chat made through the spec's REST path, with its first message answered by the coach. */
async function createChatWithMessage(page: Page, baseURL: string | undefined, content: string) {
  const headers = { origin: baseURL ?? '' };
  const created = await page.request.post('/api/chats', { data: {}, headers });
  expect(created.status()).toBe(201);
  const chat = (await created.json()) as { id: number };
  const sent = await page.request.post(`/api/chats/${chat.id}/messages`, { data: { role: 'user', content }, headers });
  expect(sent.status()).toBe(201);
  return chat.id;
}

function recentChats(page: Page) {
  return page.getByRole('region', { name: chatTexts.recentChats });
}
function mainArea(page: Page) {
  return page.getByRole('main');
}
function coachingTools(page: Page) {
  return page.getByRole('region', { name: chatTexts.coachingToolsTitle });
}

async function chatOptions(page: Page, title: string): Promise<Locator> {
  const button = recentChats(page).getByRole('button', { name: chatTexts.chatOptions(title) });
  await button.click();
  return page.getByRole('menu');
}

test.beforeEach(async ({ page }) => {
  // The onboarding dialog is another screen's business; keep it out of the way.
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test.describe('a new conversation', () => {
  test('opens with the greeting, the coaching tools and the offline coach notice', async ({ page }) => {
    await page.goto('/app');

    await expect(mainArea(page).getByRole('heading', { name: chatTexts.pageTitle, level: 1 })).toBeVisible();
    await expect(coachMessages(page)).toHaveCount(1);
    await expect(coachMessages(page).first()).toHaveText(chatTexts.greeting);
    const tools = coachingTools(page);
    await expect(tools).toBeVisible();
    await expect(tools).toHaveAttribute('id', 'coaching-tools'); // the sidebar links' anchor
    for (const tool of chatTexts.quickStarts) await expect(tools.getByRole('button', { name: tool.label })).toBeVisible();
    await expect(page.getByText(chatTexts.offlineCoachNotice)).toBeVisible();
    await expect(messageInput(page)).toBeVisible();
    await expect(page.getByRole('button', { name: chatTexts.send })).toBeDisabled();
    // Nothing to copy or save before the conversation starts.
    await expect(mainArea(page).getByRole('button', { name: chatTexts.copyConversation, exact: true })).toBeDisabled();
  });

  test('the sidebar coaching tools lead to the quick starts', async ({ page }) => {
    await page.goto('/app?chat=1');
    await page.getByRole('link', { name: 'SMART Goals' }).click();

    await expect(page).toHaveURL(/\/app#coaching-tools$/);
    await expect(coachingTools(page)).toBeInViewport();
  });

  test('?new=true shows a fresh conversation with nothing stored yet', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');

    await expect(coachMessages(page)).toHaveCount(1);
    await expect(userMessages(page)).toHaveCount(0);
    await expect(recentChats(page).getByText(chatTexts.noChats)).toBeVisible();
  });

  test('sending a message shows the typing indicator, then the reply grows word by word', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');
    await expect(messageInput(page)).toBeVisible();
    // Record what the conversation shows at every change: how many coach bubbles, whether the
    // typing dots show, and the text length of the newest coach bubble.
    type Seen = { bubbles: number; typing: boolean; reply: number };
    await page.evaluate(() => {
      const w = window as unknown as { seen: Seen[] };
      w.seen = [];
      new MutationObserver(() => {
        const coach = document.querySelectorAll('article[aria-label="AI Coach"]');
        w.seen.push({
          bubbles: coach.length,
          typing: document.querySelector('[aria-label="Coach is typing"]') !== null,
          reply: (coach[coach.length - 1]?.textContent ?? '').length,
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // What the new reply's bubble went through, once there are `bubbles` coach bubbles.
    const replyStates = async (bubbles: number) => {
      const seen = (await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen.splice(0))).filter((s) => s.bubbles === bubbles);
      const words = seen.filter((s) => !s.typing && s.reply > 0);
      return { typingFirst: seen.findIndex((s) => s.typing), textFirst: seen.indexOf(words[0]!), lengths: words.map((s) => s.reply) };
    };

    // The first message creates the chat: the typing dots show before any words.
    await messageInput(page).fill("Let's run a GROW session");
    await page.getByRole('button', { name: chatTexts.send }).click();
    await expect(userMessages(page)).toHaveCount(1);
    await expect(userMessages(page)).toContainText("Let's run a GROW session");
    await replyFinished(page);
    await expect(coachMessages(page).last()).toContainText('GROW');
    await expect(page).toHaveURL(/\/app\?chat=\d+$/);
    const first = await replyStates(2);
    expect(first.typingFirst).toBeGreaterThanOrEqual(0);
    expect(first.textFirst).toBeGreaterThan(first.typingFirst);

    // In the open chat the words arrive live: the reply is shown growing, never shrinking.
    await say(page, 'I want to delegate more of the planning work to my team');
    const second = await replyStates(3);
    expect(second.typingFirst).toBeGreaterThanOrEqual(0);
    expect(second.textFirst).toBeGreaterThan(second.typingFirst);
    expect(new Set(second.lengths).size).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < second.lengths.length; i++) expect(second.lengths[i]).toBeGreaterThanOrEqual(second.lengths[i - 1]!);
  });

  test('the first message names the chat in the sidebar', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');
    const first = 'Help me plan the quarterly offsite for the platform team';

    await say(page, first);

    const title = autoChatTitle(first);
    expect(title).toBe('Help me plan the quarterly off...');
    await expect(recentChats(page).getByRole('link', { name: title })).toHaveAttribute('aria-current', 'page');
    await expect(mainArea(page).getByText(title)).toBeVisible();
  });

  test('a quick start sends its starter message', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');

    await coachingTools(page).getByRole('button', { name: 'SMART goal' }).click();

    await expect(userMessages(page)).toHaveCount(1);
    await expect(userMessages(page)).toContainText('Help me set a SMART goal');
    await replyFinished(page);
    await expect(coachMessages(page).last()).toContainText('SMART');
  });
});

test.describe('the message input', () => {
  test('Enter sends, Shift+Enter starts a new line', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');
    const input = messageInput(page);

    await input.click();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await expect(input).toHaveValue('First line\nsecond line');
    await expect(userMessages(page)).toHaveCount(0);

    await page.keyboard.press('Enter');
    await expect(userMessages(page)).toHaveCount(1);
    await expect(input).toHaveValue('');
    await replyFinished(page);
    expect(await userMessages(page).innerText()).toContain('First line\nsecond line');
  });

  test('an empty or blank message cannot be sent', async ({ page }) => {
    await page.goto('/app?new=true');
    const input = messageInput(page);
    const send = page.getByRole('button', { name: chatTexts.send });

    await expect(send).toBeDisabled();
    await input.fill('   \n  ');
    await expect(send).toBeDisabled();
    await input.press('Enter');
    await expect(userMessages(page)).toHaveCount(0);
    await input.fill('Now there is something');
    await expect(send).toBeEnabled();
  });

  // Chromium sizes the input itself (CSS field-sizing); a browser that cannot gets Mantine's
  // autosizing Textarea, loaded before the page is drawn (features/chat/composerInput.ts).
  for (const sizing of ['by the browser', 'by Mantine where the browser cannot'] as const) {
    test(`grows with its text up to 8 lines, then scrolls (sized ${sizing})`, async ({ page }) => {
      if (sizing !== 'by the browser') {
        await page.addInitScript(() => {
          const supports = CSS.supports.bind(CSS);
          CSS.supports = (...args: [string, string?]) => (args[0] === 'field-sizing' ? false : supports(...(args as [string, string])));
        });
      }
      await page.goto('/app?new=true');
      // Measured on the app's input, not the placeholder's it replaces.
      await expect(page.locator('[data-app-placeholder]')).toHaveCount(0);
      const input = messageInput(page);
      await input.click();
      await page.keyboard.type('One line');
      await expect(input).toHaveValue('One line');
      const oneLine = (await input.boundingBox())!.height;
      for (let line = 2; line <= 4; line += 1) {
        await page.keyboard.press('Shift+Enter');
        await page.keyboard.type(`Line ${line}`);
      }
      await expect.poll(async () => (await input.boundingBox())!.height).toBeGreaterThan(oneLine * 2.5);
      const fourLines = (await input.boundingBox())!.height;
      for (let line = 5; line <= 12; line += 1) {
        await page.keyboard.press('Shift+Enter');
        await page.keyboard.type(`Line ${line}`);
      }
      await expect.poll(async () => (await input.boundingBox())!.height).toBeGreaterThan(fourLines * 1.5);
      const tallest = (await input.boundingBox())!.height;
      // Past 8 lines it stops growing and scrolls.
      expect(tallest).toBeLessThan(oneLine * 8.5);
      expect(await input.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      // Sending still works, and the input (the new chat's, once it opens) is one line again.
      await page.keyboard.press('Enter');
      await expect(input).toHaveValue('');
      await expect.poll(async () => (await input.boundingBox())?.height ?? Number.POSITIVE_INFINITY).toBeLessThan(oneLine * 1.5);
    });
  }
});

test.describe('unsent text', () => {
  test('stays with its conversation when another chat opens, and is there on coming back', async ({ page }) => {
    await page.goto('/app');
    const input = messageInput(page);
    await input.fill('A thought for a new chat');

    await recentChats(page).getByRole('link', { name: 'Career growth with GROW' }).click();
    await expect(mainArea(page).getByText('Career growth with GROW')).toBeVisible();
    await expect(input).toHaveValue('');
    await input.fill('A question about growth');

    await recentChats(page).getByRole('link', { name: 'Quarterly OKR planning' }).click();
    await expect(mainArea(page).getByText('Quarterly OKR planning')).toBeVisible();
    await expect(input).toHaveValue('');

    await recentChats(page).getByRole('link', { name: 'Career growth with GROW' }).click();
    await expect(mainArea(page).getByText('Career growth with GROW')).toBeVisible();
    await expect(input).toHaveValue('A question about growth');

    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: chatTexts.newChat }).click();
    await expect(input).toHaveValue('A thought for a new chat');
    // Nothing was sent on the way.
    await expect(userMessages(page)).toHaveCount(0);
  });
});

test.describe('replies', () => {
  test('an agenda reply offers to save, email and modify the agenda', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');

    await say(page, 'Help me prepare a meeting agenda');
    await say(page, 'Weekly sync with my team: agree the priorities for the week');
    await say(page, '45 minutes');
    await say(page, 'My four direct reports');
    const reply = await say(page, 'Wins, metrics review, blockers, priorities');

    await expect(reply).toContainText('agenda');
    const [save, email, modify] = chatTexts.agendaButtons;
    await expect(reply.getByRole('button', { name: save })).toBeVisible();
    await expect(reply.getByRole('button', { name: email })).toBeVisible();
    await expect(reply.getByRole('button', { name: modify })).toBeVisible();
    // Questions before the result do not mention an agenda, so they have no buttons.
    await expect(page.getByRole('button', { name: save })).toHaveCount(1);

    // Save, in a chat for no meeting: which meeting, or a calendar file with the agenda in its description.
    await reply.getByRole('button', { name: save }).click();
    const picker = page.getByRole('dialog', { name: chatTexts.agendaPickTitle });
    const downloading = page.waitForEvent('download');
    await picker.getByRole('button', { name: chatTexts.agendaPickDownload }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('meeting-agenda.ics');
    const ics = await fs.readFile(await download.path(), 'utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics.replace(/\r\n /g, '')).toContain('Metrics review');

    // Email: a mail draft with the agenda as its body.
    await reply.getByRole('button', { name: email }).click();
    const href = (await picker.getByRole('link', { name: chatTexts.agendaPickDraft }).getAttribute('href')) ?? '';
    expect(href).toMatch(/^mailto:\?subject=/);
    expect(decodeURIComponent(href)).toContain('Metrics review');
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();

    // Modify: a request to change it, ready to finish in the input.
    await reply.getByRole('button', { name: modify }).click();
    await expect(messageInput(page)).toHaveValue(chatTexts.modifyAgendaPrefix);
    await expect(messageInput(page)).toBeFocused();
  });

  test('numbered lines of a reply are indented', async ({ page }) => {
    await page.goto('/app');
    await recentChats(page).getByRole('link', { name: 'Weekly team meeting agenda' }).click();

    const reply = coachMessages(page).last();
    const intro = reply.getByText('Here is a draft agenda');
    const firstItem = reply.getByRole('listitem').filter({ hasText: 'Wins from last week' });
    await expect(firstItem).toBeVisible();
    const introBox = (await intro.boundingBox())!;
    const itemBox = (await firstItem.boundingBox())!;
    expect(itemBox.x).toBeGreaterThan(introBox.x + 16);
  });
});

test.describe('opening chats', () => {
  test('?chat={id} opens that chat, highlighted in the sidebar', async ({ page }) => {
    await page.goto('/app');
    const link = recentChats(page).getByRole('link', { name: 'Career growth with GROW' });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/\/app\?chat=\d+$/);

    await page.goto(href);

    await expect(link).toHaveAttribute('aria-current', 'page');
    await expect(mainArea(page).getByText('Career growth with GROW')).toBeVisible();
    await expect(coachMessages(page).first()).toHaveText(chatTexts.greeting);
    await expect(userMessages(page)).not.toHaveCount(0);
  });

  test('the sidebar lists the sample chats', async ({ page }) => {
    await page.goto('/app');
    for (const title of sampleTitles) await expect(recentChats(page).getByRole('link', { name: title })).toBeVisible();
  });

  test('on a phone the burger opens the sidebar, drawn when first opened, and a chat opens from it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/app');
    await expect(messageInput(page)).toBeVisible();
    await expect(recentChats(page).getByRole('link')).toHaveCount(0);

    await page.getByRole('button', { name: 'Open navigation' }).click();
    const link = recentChats(page).getByRole('link', { name: 'Career growth with GROW' });
    await expect(link).toBeVisible();
    await link.click();

    await expect(page).toHaveURL(/\/app\?chat=\d+$/);
    await expect(mainArea(page).getByText('Career growth with GROW')).toBeVisible();
    await expect(link).not.toBeInViewport();
    // Opened again, it is there at once (kept from the first opening).
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(link).toHaveAttribute('aria-current', 'page');
  });

  test('an unknown chat shows Chat not found with a way to start a new chat', async ({ page }) => {
    await page.goto('/app?chat=987654');

    await expect(page.getByRole('heading', { name: chatTexts.chatNotFound })).toBeVisible();
    await mainArea(page).getByRole('link', { name: chatTexts.newChat }).last().click();

    await expect(page).toHaveURL(/\/app\?new=true$/);
    await expect(coachMessages(page)).toHaveText([chatTexts.greeting]);
  });
});

test.describe('managing chats in the sidebar', () => {
  test('a chat can be renamed; an empty title is refused and Escape cancels', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await createChatWithMessage(page, baseURL, 'Prepare my one-on-one with Sam');
    await page.goto('/app');
    const before = autoChatTitle('Prepare my one-on-one with Sam');

    let menu = await chatOptions(page, before);
    await menu.getByRole('menuitem', { name: chatTexts.rename }).click();
    const field = recentChats(page).getByRole('textbox', { name: chatTexts.renameLabel });
    await expect(field).toBeFocused();
    await field.fill('   ');
    await field.press('Enter');
    await expect(recentChats(page).getByText(chatTexts.titleRequired)).toBeVisible();
    await field.press('Escape');
    await expect(recentChats(page).getByRole('link', { name: before })).toBeVisible();

    menu = await chatOptions(page, before);
    await menu.getByRole('menuitem', { name: chatTexts.rename }).click();
    await field.fill('1:1 with Sam');
    await field.press('Enter');
    await expect(recentChats(page).getByRole('link', { name: '1:1 with Sam' })).toBeVisible();

    await page.reload();
    await expect(recentChats(page).getByRole('link', { name: '1:1 with Sam' })).toBeVisible();
  });

  test('pinning moves a chat to the top, unpinning puts it back', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await createChatWithMessage(page, baseURL, 'Older chat about hiring');
    await createChatWithMessage(page, baseURL, 'Newer chat about budgets');
    await page.goto('/app');
    const older = autoChatTitle('Older chat about hiring');
    const newer = autoChatTitle('Newer chat about budgets');
    const links = recentChats(page).getByRole('link');
    await expect(links).toHaveText([newer, older]);

    await (await chatOptions(page, older)).getByRole('menuitem', { name: chatTexts.pin }).click();
    await expect(links).toHaveText([older, newer]);
    await expect(links.first().getByRole('img', { name: chatTexts.pinned })).toBeVisible();

    await page.reload();
    await expect(links).toHaveText([older, newer]);

    await (await chatOptions(page, older)).getByRole('menuitem', { name: chatTexts.unpin }).click();
    await expect(links).toHaveText([newer, older]); // pinning is not activity: back to its place
    await expect(recentChats(page).getByRole('img', { name: chatTexts.pinned })).toHaveCount(0);
  });

  test('deleting the open chat asks first, then starts a new chat', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    const chatId = await createChatWithMessage(page, baseURL, 'A chat to throw away');
    const title = autoChatTitle('A chat to throw away');
    await page.goto(`/app?chat=${chatId}`);
    await expect(recentChats(page).getByRole('link', { name: title })).toHaveAttribute('aria-current', 'page');

    await (await chatOptions(page, title)).getByRole('menuitem', { name: chatTexts.delete }).click();
    const dialog = page.getByRole('dialog', { name: chatTexts.deleteConfirmTitle });
    await expect(dialog).toContainText(title);
    await dialog.getByRole('button', { name: chatTexts.cancel }).click();
    await expect(dialog).toBeHidden();
    await expect(recentChats(page).getByRole('link', { name: title })).toBeVisible();

    await (await chatOptions(page, title)).getByRole('menuitem', { name: chatTexts.delete }).click();
    await dialog.getByRole('button', { name: chatTexts.delete }).click();

    await expect(page).toHaveURL(/\/app\?new=true$/);
    await expect(recentChats(page).getByRole('link', { name: title })).toHaveCount(0);
    await expect(recentChats(page).getByText(chatTexts.noChats)).toBeVisible();
  });
});

test.describe('copy and save', () => {
  test('Copy puts the whole conversation on the clipboard', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');
    await say(page, 'Help me write OKRs');

    await mainArea(page).getByRole('button', { name: chatTexts.copyConversation, exact: true }).click();

    await expect(page.getByText(commonTexts.copiedToClipboard)).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`${chatTexts.speakerCoach}: ${chatTexts.greeting}`);
    expect(copied).toContain(`${chatTexts.speakerUser}: Help me write OKRs`);
    expect(copied).toContain('OKR');
  });

  test('Save downloads the conversation as Markdown named after the chat', async ({ page, baseURL }) => {
    await signUpFreshUser(page, baseURL);
    await page.goto('/app?new=true');
    await say(page, 'Help me prepare feedback for a colleague');
    const title = autoChatTitle('Help me prepare feedback for a colleague');

    const downloading = page.waitForEvent('download');
    await mainArea(page).getByRole('button', { name: chatTexts.saveConversation, exact: true }).click();
    const download = await downloading;

    expect(download.suggestedFilename()).toBe(`${title.replace(/\.{3}$/, '').trim()}.md`);
    const markdown = await fs.readFile(await download.path(), 'utf8');
    expect(markdown).toContain(`# ${title}`);
    expect(markdown).toContain(chatTexts.greeting);
    expect(markdown).toContain('> Help me prepare feedback for a colleague');
  });
});

test.describe('long conversations', () => {
  /** A chat of `questions` questions, each answered by the coach before the next is sent. */
  async function longChat(page: Page, baseURL: string | undefined, questions: number) {
    const headers = { origin: baseURL ?? '' };
    const chatId = ((await (await page.request.post('/api/chats', { data: {}, headers })).json()) as { id: number }).id;
    const lastStatus = async () => {
      const { messages } = (await (await page.request.get(`/api/chats/${chatId}/messages?limit=1`)).json()) as { messages: Array<{ status: string }> };
      return messages.at(-1)?.status;
    };
    for (let i = 1; i <= questions; i++) {
      const sent = await page.request.post(`/api/chats/${chatId}/messages`, { data: { content: `Question number ${i}` }, headers });
      expect(sent.status()).toBe(201);
      await expect.poll(lastStatus, { intervals: [50, 100, 200] }).not.toBe('streaming');
    }
    return chatId;
  }

  /** Turns the mouse wheel over the conversation until `target` is in view. */
  async function wheelUntilInView(page: Page, target: Locator, onStep: () => Promise<void> = async () => {}) {
    const box = (await conversation(page).locator('xpath=..').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect(async () => {
      await page.mouse.wheel(0, -500);
      await onStep();
      await expect(target).toBeInViewport({ timeout: 300 });
    }).toPass({ timeout: 60_000, intervals: [50] });
  }

  test('older messages load when scrolling to the top, and the reader keeps their place', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await signUpFreshUser(page, baseURL);
    // 16 questions and answers: more than the first page of 30 messages.
    const chatId = await longChat(page, baseURL, 16);

    await page.goto(`/app?chat=${chatId}`);
    const question = (n: number) => conversation(page).getByText(`Question number ${n}`, { exact: true });
    await expect(question(16)).toBeInViewport();
    await expect(question(1)).toHaveCount(0);
    await expect(conversation(page).getByText(chatTexts.greeting)).toHaveCount(0);

    await wheelUntilInView(page, question(2));

    await expect(question(1)).toHaveCount(1);
    await expect(coachMessages(page).first()).toHaveText(chatTexts.greeting);
    // The earlier messages went in above: what the reader was looking at stays in view.
    await expect(question(2)).toBeInViewport();
    await expect(coachMessages(page).first()).not.toBeInViewport();
  });

  test('a long chat keeps a few messages in the page, opens at its end and shows older ones on scrolling up', async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    await signUpFreshUser(page, baseURL);
    // 45 questions and answers: 90 messages, three pages.
    const chatId = await longChat(page, baseURL, 45);
    const articles = conversation(page).getByRole('article');
    const question = (n: number) => conversation(page).getByText(`Question number ${n}`, { exact: true });

    await page.goto(`/app?chat=${chatId}`);
    // Opens at the end: the newest question and the reply to it are in view.
    await expect(question(45)).toBeInViewport();
    await expect(coachMessages(page).last()).toBeInViewport();
    // Only the messages in and near the view are in the page, not the whole first page of 30.
    const atOpen = await articles.count();
    expect(atOpen).toBeGreaterThan(2);
    expect(atOpen).toBeLessThan(30);

    // Scrolling up reveals older messages, page after page, down to the first question and the
    // greeting; the page never holds more than a few dozen of the 90 messages.
    let most = atOpen;
    await wheelUntilInView(page, conversation(page).getByText(chatTexts.greeting), async () => {
      most = Math.max(most, await articles.count());
    });
    await expect(question(1)).toBeInViewport();
    await expect(question(45)).toHaveCount(0);
    expect(most).toBeLessThan(40);

    // The keyboard scrolls the conversation: End goes back to the newest message.
    await question(1).click();
    await page.keyboard.press('End');
    await expect(question(45)).toBeInViewport();
    await expect(question(1)).toHaveCount(0);
  });
});
