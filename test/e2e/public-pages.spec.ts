import { expect, test, type Locator, type Page } from '@playwright/test';
import { commonTexts, landingTexts, legalTexts } from '../../src/shared/texts';

// The public site of the product spec's screens: landing page, /terms, /privacy and the not-found page.

const openers: { name: string; find: (page: Page) => Locator }[] = [
  { name: 'the header Log in button', find: (page) => page.getByRole('banner').getByRole('button', { name: landingTexts.header.logIn }) },
  { name: 'the header Sign up button', find: (page) => page.getByRole('banner').getByRole('button', { name: landingTexts.header.signUp }) },
  { name: 'the hero call to action', find: (page) => page.getByRole('button', { name: landingTexts.hero.primaryAction }) },
  { name: 'the closing call to action', find: (page) => page.getByRole('button', { name: landingTexts.callToAction.action }) },
  { name: 'the footer dashboard link', find: (page) => page.getByRole('contentinfo').getByRole('link', { name: landingTexts.footer.dashboard }) },
];

test.describe('landing page', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });

  test('shows the brand and the Log in and Sign up buttons in the header', async ({ page }) => {
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: commonTexts.brand })).toBeVisible();
    await expect(header.getByRole('button', { name: landingTexts.header.logIn })).toBeVisible();
    await expect(header.getByRole('button', { name: landingTexts.header.signUp })).toBeVisible();
  });

  test('has one main heading and a call to action in the hero', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1, name: landingTexts.hero.title })).toBeVisible();
    await expect(page.getByRole('button', { name: landingTexts.hero.primaryAction })).toBeVisible();
    await expect(page).toHaveTitle(commonTexts.brand);
  });

  test('shows the three feature cards', async ({ page }) => {
    for (const title of ['AI-Powered Analysis', 'Performance Tracking', 'Coaching Frameworks']) {
      await expect(page.getByRole('heading', { level: 3, name: title, exact: true })).toBeVisible();
    }
  });

  test('names GROW, OKRs and SMART goals on the Coaching Frameworks card', async ({ page }) => {
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Coaching Frameworks' }) });
    for (const framework of ['GROW', 'OKRs', 'SMART goals']) {
      await expect(card).toContainText(framework);
    }
  });

  test('shows the integrations section with calendar, email and Teams', async ({ page }) => {
    const section = page.getByRole('region', { name: landingTexts.integrations.title });
    await expect(section).toBeVisible();
    for (const title of ['Calendar Analysis', 'Email Integration', 'Teams Connection']) {
      await expect(section.getByRole('heading', { level: 3, name: title, exact: true })).toBeVisible();
    }
  });

  test('links to the dashboard, the terms and the privacy policy in the footer', async ({ page }) => {
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: landingTexts.footer.dashboard })).toBeVisible();
    await expect(footer.getByRole('link', { name: landingTexts.footer.terms })).toHaveAttribute('href', '/terms');
    await expect(footer.getByRole('link', { name: landingTexts.footer.privacy })).toHaveAttribute('href', '/privacy');
  });

  for (const opener of openers) {
    test(`${opener.name} opens the auth dialog without leaving the page`, async ({ page }) => {
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // Some openers are links (to /app) that open the dialog instead once React has the page;
      // clicked before that, the browser follows them (prerender.spec covers the early clicks).
      await expect(page.locator('html[data-hydration="done"]')).toBeAttached();

      await opener.find(page).click();

      await expect(page.getByRole('dialog')).toBeVisible();
      expect(new URL(page.url()).pathname).toBe('/');
    });
  }

  test('the footer Terms of Service link opens the terms', async ({ page }) => {
    await page.getByRole('contentinfo').getByRole('link', { name: landingTexts.footer.terms }).click();

    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { level: 1, name: legalTexts.terms.title })).toBeVisible();
  });

  test('See how it works jumps to the feature cards', async ({ page }) => {
    const featuresHeading = page.getByRole('heading', { level: 2, name: landingTexts.features.title });
    await expect(featuresHeading).not.toBeInViewport();

    await page.getByRole('link', { name: landingTexts.hero.secondaryAction }).click();

    await expect(featuresHeading).toBeInViewport();
  });
});

test.describe('landing page on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('fits the screen width without horizontal scrolling', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('keeps Log in and Sign up reachable in the header', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');

    await expect(header.getByRole('button', { name: landingTexts.header.logIn })).toBeInViewport();
    await expect(header.getByRole('button', { name: landingTexts.header.signUp })).toBeInViewport();
  });
});

test.describe('terms of service', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/terms');
  });

  test('has ten numbered sections', async ({ page }) => {
    const sections = page.getByRole('main').getByRole('heading', { level: 2 });
    await expect(sections).toHaveCount(10);
    await expect(sections.first()).toHaveText(/^1\. /);
    await expect(sections.last()).toHaveText(/^10\. /);
  });

  test('shows when it was last updated', async ({ page }) => {
    await expect(page.getByText('Last updated: May 20, 2025')).toBeVisible();
    await expect(page).toHaveTitle(`${legalTexts.terms.title} · ${commonTexts.brand}`);
  });

  test("promises 30 days' notice of material changes", async ({ page }) => {
    const changes = page.getByRole('region', { name: /Changes to These Terms/ });
    await expect(changes).toContainText('30 days');
    await expect(changes).toContainText('material change');
  });

  test('Go to App takes the reader to /app', async ({ page }) => {
    await page.getByRole('link', { name: legalTexts.goToApp }).click();

    await expect(page).toHaveURL(/\/app$/);
  });

  test('links back home', async ({ page }) => {
    await page.getByRole('banner').getByRole('link', { name: legalTexts.backToHome }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: landingTexts.hero.title })).toBeVisible();
  });
});

test.describe('privacy policy', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/privacy');
  });

  test('renders the policy with its date', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 1, name: legalTexts.privacy.title })).toBeVisible();
    await expect(page.getByText('Last updated: May 20, 2025')).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(legalTexts.privacy.sections.length);
  });

  test('explains that mail and calendar data come from Microsoft only with consent', async ({ page }) => {
    const section = page.getByRole('region', { name: /Email, Calendar and Team Chat Data/ });
    await expect(section).toContainText('Microsoft');
    await expect(section).toContainText('consent');
    await expect(section).toContainText('encrypted at rest');
  });

  test('links back home', async ({ page }) => {
    await page.getByRole('banner').getByRole('link', { name: legalTexts.backToHome }).click();

    await expect(page).toHaveURL(/\/$/);
  });
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no-such-page');

  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});
