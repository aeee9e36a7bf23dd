import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A fresh account for one test, signed in through the spec's register path (same cookies as the page). */
export async function signUpFresh(page: Page, baseURL: string, prefix = 'ms') {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  const res = await page.request.post('/api/auth/register', {
    data: { username, password: 'secret123', fullName: 'Alex Morgan', jobTitle: 'Engineering Manager' },
    headers: { origin: baseURL },
  });
  expect(res.status()).toBe(201);
  return username;
}

/** Connects Microsoft Email with a pasted token; the fake gives each e2e- token a fresh mailbox. */
export async function connectWithToken(page: Page) {
  const token = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  // advanced=true: the token form open at once (the Connect menu's 'Advanced: paste an access token').
  await page.goto('/microsoft-manual-auth?service=Microsoft%20Email&advanced=true');
  await page.getByRole('textbox', { name: 'Access token' }).fill(token);
  await page.getByRole('button', { name: 'Connect with token' }).click();
  await expect(page.getByText('alex.morgan@contoso.example', { exact: true })).toBeVisible();
}
