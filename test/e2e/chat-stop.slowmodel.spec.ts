import { expect, test, type Page } from '@playwright/test';
import { chatTexts } from '../../src/shared/texts/index.js';
import { coachMessages, conversation, messageInput, userMessages } from './support/chatPage.js';

// Stopping a reply, against a model we control: the fake OpenAI server at port 4320 streams 400
// words, one every 80 ms (playwright.config.ts, project 'slow-model').


test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
});

test('a streaming reply can be stopped: the partial text stays, marked, and the chat takes the next message', async ({ page }) => {
  await page.goto('/app?new=true');
  // A configured model: no offline notice.
  await expect(messageInput(page)).toBeVisible();
  await expect(page.getByText(chatTexts.offlineCoachNotice)).toHaveCount(0);

  await messageInput(page).fill('Tell me how to run better retrospectives');
  await messageInput(page).press('Enter');

  // First the typing dots, then words that keep coming.
  await expect(page.getByRole('status', { name: chatTexts.typing })).toBeVisible();
  const reply = coachMessages(page).last();
  await expect(reply).toContainText('Here is a slowly streamed reply');
  const early = (await reply.innerText()).length;
  await expect.poll(async () => (await reply.innerText()).length).toBeGreaterThan(early + 40);
  await expect(page).toHaveURL(/\/app\?chat=\d+$/);

  await page.getByRole('button', { name: chatTexts.stop }).click();

  await expect(reply.getByText(chatTexts.stoppedMark)).toBeVisible();
  await expect(page.getByRole('button', { name: chatTexts.stop })).toHaveCount(0);
  await expect(page.getByRole('status', { name: chatTexts.typing })).toHaveCount(0);
  const stopped = await reply.innerText();
  expect(stopped.split(/\s+/).length).toBeLessThan(400);

  // The partial reply was stored as it was shown.
  await page.reload();
  await expect(coachMessages(page).last().getByText(chatTexts.stoppedMark)).toBeVisible();
  expect(await coachMessages(page).last().innerText()).toBe(stopped);

  // The chat takes the next message, and its reply streams again.
  await messageInput(page).fill('Thanks, that is enough');
  await messageInput(page).press('Enter');
  await expect(userMessages(page)).toHaveCount(2);
  await expect(coachMessages(page)).toHaveCount(3);
  await expect(coachMessages(page).last()).toContainText('Here is a slowly streamed reply');
  await page.getByRole('button', { name: chatTexts.stop }).click();
  await expect(coachMessages(page).last().getByText(chatTexts.stoppedMark)).toBeVisible();
});

// Enter right after Stop used to do nothing one time in three: until the server has stored the
// stopped reply the chat is still blocked (the reply is 'streaming' in the page's cache), and the
// composer dropped an Enter pressed then. Now the message waits, said so under the input, and goes
// once the chat is free. On a CPU slowed four times, where that window is widest. Each round's
// message is typed while the reply streams, so that Enter follows the click on Stop at once; in
// every other round the stop reaches the server only after the Enter (a slow network), so that
// Enter surely comes while the chat is still blocked.
test('Enter right after Stop sends the message, 20 times in a row on a 4x slowed CPU', async ({ page }) => {
  test.setTimeout(900_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto('/app?new=true');
  await messageInput(page).fill('Round 0');
  await messageInput(page).press('Enter');
  await expect(page).toHaveURL(/\/app\?chat=\d+$/, { timeout: 180_000 });
  const stop = page.getByRole('button', { name: chatTexts.stop });
  // In a slow round the stop waits at the network until the test lets it go (held resolves to that).
  let slowStop = false;
  let onHeld: (release: () => void) => void = () => {};
  await page.route('**/trpc/chats.stop**', async (route) => {
    if (slowStop) await new Promise<void>((resolve) => onHeld(resolve));
    await route.continue();
  });
  let queuedRounds = 0;
  for (let round = 1; round <= 20; round += 1) {
    // Stop as soon as the reply streams (it lasts about half a minute: 400 words, one every 80 ms).
    await expect(stop).toBeVisible({ timeout: 60_000 });
    await messageInput(page).fill(`Round ${round}`);
    slowStop = round % 2 === 0;
    const held = new Promise<() => void>((resolve) => (onHeld = resolve));
    await stop.click();
    await messageInput(page).press('Enter');
    if (slowStop) {
      await expect(page.getByText(chatTexts.sendQueued), `round ${round}`).toBeVisible();
      await expect(messageInput(page)).toHaveValue(`Round ${round}`);
      (await held)();
    }
    if (await page.getByText(chatTexts.sendQueued).isVisible()) queuedRounds += 1;
    await expect(userMessages(page).last(), `round ${round}`).toContainText(`Round ${round}`, { timeout: 60_000 });
    await expect(messageInput(page)).toHaveValue('');
    await expect(page.getByText(chatTexts.sendQueued)).toHaveCount(0);
    // The thread draws only the rows near the view (ChatThread.tsx): what it draws of the user's
    // messages is the newest ones, each once, none missing between.
    const drawn = await sentRounds(page);
    expect(drawn.length, `round ${round}`).toBeGreaterThanOrEqual(Math.min(round + 1, 2));
    expect(drawn, `round ${round}`).toEqual(Array.from({ length: drawn.length }, (_, i) => round - drawn.length + 1 + i));
  }
  slowStop = false;
  await stop.click();
  await expect(stop).toHaveCount(0);
  test.info().annotations.push({ type: 'queued', description: `${queuedRounds} of 20 rounds showed '${chatTexts.sendQueued}'` });

  // Every message sent is in the thread, once and in order: read from its top (older pages load
  // as the top comes into view, until Round 0 is there) to its end.
  const thread = conversation(page).locator('xpath=..');
  await expect
    .poll(async () => {
      await thread.evaluate((element) => element.scrollTo({ top: 0 }));
      return (await sentRounds(page))[0];
    }, { timeout: 60_000 })
    .toBe(0);
  const seen: number[] = [];
  for (let step = 0; step < 200; step += 1) {
    await page.waitForTimeout(150);
    for (const n of await sentRounds(page)) if (!seen.includes(n)) seen.push(n);
    const atEnd = await thread.evaluate((element) => {
      const end = element.scrollTop + element.clientHeight >= element.scrollHeight - 2;
      element.scrollBy({ top: element.clientHeight / 2 });
      return end;
    });
    if (atEnd) break;
  }
  expect(seen).toEqual(Array.from({ length: 21 }, (_, i) => i));
});

/** The round numbers of the user's messages the thread draws now, top to bottom. */
async function sentRounds(page: Page) {
  const texts = await userMessages(page).allInnerTexts();
  return texts.map((text) => Number(/Round (\d+)/.exec(text)?.[1] ?? Number.NaN));
}
