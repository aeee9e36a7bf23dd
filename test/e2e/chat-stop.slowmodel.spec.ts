import { expect, test } from '@playwright/test';
import { chatTexts } from '../../src/shared/texts/index.js';
import { coachMessages, messageInput, userMessages } from './support/chatPage.js';

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
// once the chat is free. On a CPU slowed four times, where that window is widest.
// Not yet green: on a machine at load 20 to 37 every round's message was sent, but at round 5 the
// thread showed 4 of the 6 messages sent (the count below); not investigated yet.
test.fixme('Enter right after Stop sends the message, 20 times in a row on a 4x slowed CPU', async ({ page }) => {
  test.setTimeout(900_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto('/app?new=true');
  await messageInput(page).fill('Round 0');
  await messageInput(page).press('Enter');
  await expect(page).toHaveURL(/\/app\?chat=\d+$/, { timeout: 180_000 });
  for (let round = 1; round <= 20; round += 1) {
    const stop = page.getByRole('button', { name: chatTexts.stop });
    // Stop as soon as the reply streams (it lasts about half a minute: 400 words, one every 80 ms).
    await stop.click({ timeout: 60_000 });
    await messageInput(page).fill(`Round ${round}`);
    await messageInput(page).press('Enter');
    await expect(userMessages(page).last(), `round ${round}`).toContainText(`Round ${round}`, { timeout: 60_000 });
    await expect(userMessages(page)).toHaveCount(round + 1);
    await expect(messageInput(page)).toHaveValue('');
  }
  await page.getByRole('button', { name: chatTexts.stop }).click();
});
