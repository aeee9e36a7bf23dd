// A cold page load as a person meets it, for bench/chat-open.ts and bench/stack-floor.ts (the
// stack's floor is measured the same way as the app).
import type { BrowserContext, Page } from '@playwright/test';

/** Chromium as the cold-load benches launch it. */
export const benchChromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

/**
 * A page of a new context (an empty cache) whose window has settled: headless Chromium loads its
 * omnibox's WebUI into every new window, on the same cores as the page, and a person's browser has
 * done that before they type an address. BENCH_WINDOW_SETTLE_MS (default 1000) sets the wait.
 */
export async function settledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('about:blank');
  await page.waitForTimeout(Number(process.env.BENCH_WINDOW_SETTLE_MS ?? 1000));
  return page;
}

/**
 * Loads `url` and returns the page's clock (ms from navigation start) at the first frame where
 * `check`, a JavaScript expression, is true. An expression rather than a function: the TypeScript
 * runner would wrap a function's inner functions with a helper the page does not have, and
 * page.waitForFunction evaluates a string, which the app's Content-Security-Policy forbids.
 */
export async function loadUntil(page: Page, url: string, check: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return (await page.evaluate(`new Promise((resolve) => {
    const check = () => (${check} ? resolve(performance.now()) : requestAnimationFrame(check));
    check();
  })`)) as number;
}
