import type { Page } from '@playwright/test';

/**
 * Holds every request whose URL `matches` until `release()` is called, as a slow network would: a
 * test can then look at the page while it waits (a loading state, a placeholder, a dialog opened
 * meanwhile). Returns `release`.
 */
export async function holdRequests(page: Page, matches: (url: URL) => boolean): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(matches, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
