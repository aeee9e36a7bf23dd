import { expect, test } from '@playwright/test';
import { chatTexts, commonTexts, landingTexts, legalTexts } from '../../src/shared/texts';

// The public pages are prerendered by the build (scripts/prerender.mjs) and sent as HTML for
// their paths: the page is drawn before any script runs, then React hydrates it.

test('/ arrives as HTML with its main heading, before any script runs', async ({ page, request }) => {
  const res = await request.get('/');
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('no-cache');
  const html = await res.text();
  // The main heading is in the HTML the server sends (the hero's title is plain text).
  const heading = html.match(/<h1[\s>][\s\S]*?<\/h1>/)?.[0] ?? '';
  expect(heading).toContain(landingTexts.hero.title);

  // With scripts off, the page is all there.
  await page.context().route('**/*.js', (route) => route.abort());
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: landingTexts.hero.title })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: landingTexts.header.signUp })).toBeVisible();
});

test('the prerendered / hydrates without a mismatch, and a click works', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/');
  // The prerendered page is on screen; wait until React has taken it over (it loads the route's
  // code and hydrates), then use it.
  await expect(page.getByRole('heading', { level: 1, name: landingTexts.hero.title })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('button', { name: landingTexts.hero.primaryAction })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: landingTexts.header.signUp }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  // React reports a hydration mismatch (error #418 in production) as an uncaught error.
  expect(errors).toEqual([]);
});

test('the terms, the login page and the not-found page arrive prerendered too', async ({ request }) => {
  const terms = await request.get('/terms');
  expect(terms.status()).toBe(200);
  expect(await terms.text()).toContain(legalTexts.terms.title);

  const login = await request.get('/login');
  expect(login.status()).toBe(200);
  expect(await login.text()).toMatch(/<h1[^>]*>Log in<\/h1>/);

  const missing = await request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain(commonTexts.notFoundTitle);
});

test('a click on the prerendered /login before React has taken it over is not lost', async ({ page }) => {
  // Hold the route's code: the page is drawn and the entry runs, but cannot hydrate yet.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/login-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('html[data-hydration="pending"]')).toBeAttached();
  await page.getByRole('tab', { name: 'Access Key' }).click();
  await expect(page.getByRole('button', { name: 'Continue with access key' })).toBeHidden();

  release();
  await expect(page.locator('html[data-hydration="done"]')).toBeAttached();
  await expect(page.getByRole('tab', { name: 'Access Key' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Continue with access key' })).toBeVisible();
});

test('/app arrives with a placeholder of the chat, drawn before any script runs, of which only the input can be used', async ({ page, request }) => {
  const html = await (await request.get('/app')).text();
  expect(html).toContain('data-app-placeholder');
  expect(html).toContain(chatTexts.greeting.replace("'", '&#x27;'));
  // ?chat={id}: a conversation loading, not a new one's greeting.
  const openChat = await (await request.get('/app?chat=1')).text();
  expect(openChat).toContain('data-app-placeholder');
  expect(openChat).toContain(chatTexts.loadingConversation);
  expect(openChat).not.toContain(chatTexts.greeting.replace("'", '&#x27;'));

  await page.context().route('**/*.js', (route) => route.abort());
  await page.goto('/app');
  await expect(page.getByText(chatTexts.greeting)).toBeVisible();
  await expect(page.getByText(chatTexts.coachingToolsTitle)).toBeVisible();
  // Inert but for the chat's input: the header, the sidebar, the coaching tools and the
  // composer's buttons cannot be focused; the input can be typed into (the app takes what was
  // typed when it replaces the placeholder: first-keys.spec.ts).
  const input = page.locator('textarea');
  await expect(input).toBeVisible();
  await input.click();
  await page.keyboard.type('kept');
  await expect(input).toHaveValue('kept');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[data-app-placeholder]') ?? null)).toBeNull();
});

test('the app replaces the placeholder of /app and works', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await page.goto('/app');
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /signed in as/ })).toBeVisible();
  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await input.fill('Hello coach');
  await expect(input).toHaveValue('Hello coach');
  expect(errors).toEqual([]);
});

test('a new conversation loads the WebSocket client only once the user types, and its reply streams over it', async ({ page }) => {
  const scripts: string[] = [];
  const sockets: string[] = [];
  // Every script the page asks for, whether by an import or by the boot script's modulepreload
  // links (which Chromium does not always report as scripts).
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
  });
  page.on('websocket', (socket) => sockets.push(socket.url()));
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await page.goto('/app');
  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await expect(input).toBeEditable();
  // The placeholder's input is editable before any of the app's scripts is asked for (the boot
  // script waits for the first paint); on a loaded machine the network was idle for 500 ms before
  // that, and no chat script had been asked for yet. So: once the app has taken over.
  await expect(page.locator('[data-app-placeholder]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // The first view: the chat page's scripts, but not the WebSocket client, and no socket.
  expect(scripts.some((script) => script.startsWith('/assets/app-'))).toBe(true);
  expect(scripts.filter((script) => script.includes('trpcSocket'))).toEqual([]);
  expect(sockets).toEqual([]);
  // Nor tRPC's WebSocket client inside another chunk (it was in app-public, grouped with the
  // @trpc/client index that imports it): one of its messages marks it.
  for (const script of new Set(scripts)) {
    const code = await (await page.request.get(script)).text();
    expect(code.includes('Closed before connection was established'), `${script} holds the WebSocket client`).toBe(false);
  }

  // Typed until the input holds it: on a loaded machine, keys typed as the first view settles
  // were lost once in a CI run on a slow machine (not explained yet; the closing note of that
  // session says what the traces showed), which is not what this test is about.
  await expect(async () => {
    await input.fill('');
    await input.pressSequentially('Hi');
    await expect(input).toHaveValue('Hi', { timeout: 1_000 });
  }).toPass();
  await expect.poll(() => scripts.filter((script) => script.includes('trpcSocket')).length).toBe(1);
  expect(sockets).toEqual([]);
  await input.press('Enter');
  await expect(page.getByRole('article', { name: chatTexts.speakerCoach }).nth(1)).toBeVisible();
  await expect.poll(() => sockets.map((url) => new URL(url).pathname)).toEqual(['/trpc']);
});

test('a WebSocket client that could not be loaded is tried again, and the reply arrives', async ({ page }) => {
  const tries: string[] = [];
  await page.route(/\/assets\/trpcSocket-[^/]+\.js$/, (route) => {
    tries.push(route.request().url());
    return tries.length === 1 ? route.abort('internetdisconnected') : route.continue();
  });
  await page.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
  await page.goto('/app');
  const input = page.getByRole('textbox', { name: chatTexts.inputLabel });
  await input.fill('Help me plan my week');
  await input.press('Enter');
  await expect(page.getByRole('article', { name: chatTexts.speakerCoach }).nth(1)).toBeVisible();
  await expect.poll(() => tries.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
});

test("every prerendered page asks for the entry script's own imports first, with the entry", async ({ request }) => {
  // The entry (1 KB) imports the shared chunk (React, the router, Mantine's core: the largest
  // script). Named only in the entry, it was fetched once the entry had arrived and been parsed,
  // behind the route chunks' preloads (a chat's cold load waited for it until 437 ms).
  for (const path of ['/', '/login', '/app', '/app?chat=1']) {
    const html = await (await request.get(path)).text();
    const entry = html.match(/(?:src|data-entry)="(\/assets\/index-[^"]+\.js)"/)?.[1];
    expect(entry, path).toBeDefined();
    const entryCode = await (await request.get(entry!)).text();
    const imports = [...entryCode.matchAll(/from\s*"\.\/([^"]+\.js)"/g)].map((match) => `/assets/${match[1]}`);
    expect(imports.some((file) => file.includes('/shared-')), path).toBe(true);
    // Preloaded by links (the chat page, /login) or by the boot script's list, in page order.
    const bootList = html.match(/data-preload="([^"]*)"/)?.[1]?.split(' ') ?? [];
    const links = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]!);
    const preloads = [...bootList, ...links];
    expect(preloads.slice(0, imports.length).sort(), path).toEqual([...imports].sort());
  }
});

test("the first view's scripts ask V8 to compile all their functions as they stream in, in each encoding sent", async ({ request }) => {
  // The compile hint (vite.config.ts) counts only as a file's first line; Vite writes its list of
  // lazily loaded stylesheets there, and the compressed copies are made before the hint is added.
  const html = await (await request.get('/app?chat=1')).text();
  const scripts = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/(?:shared|app-public|app|OpenChat)-[^"]+\.js)">/g)].map((match) => match[1]!);
  expect(scripts.some((file) => file.includes('/shared-'))).toBe(true);
  expect(scripts.some((file) => file.includes('/OpenChat-'))).toBe(true);
  for (const file of scripts) {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await request.get(file, { headers: { 'accept-encoding': encoding } });
      expect((await response.text()).startsWith('//# allFunctionsCalledOnLoad\n'), `${file} (${encoding})`).toBe(true);
    }
  }
});
