import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

/** What identifies each screen: its main heading or the one control only it has, inside <main>. */
type Marker = { text: string; exact?: boolean };
const SCREEN = {
  landing: { text: 'Snap, Share, Vote' },
  uploadSignIn: { text: 'Sign In to Snap' },
  signInCard: (title: string): Marker => ({ text: title, exact: true }),
  legal: { text: 'Back to Home' },
  contact: { text: 'Full Name' },
  terms: { text: 'Accept and Continue' },
  driveSetup: { text: 'Google Drive Setup', exact: true },
  notFound: { text: '404 Page Not Found' },
  home: { text: 'Welcome back,' },
  upload: { text: 'Snap a Crack', exact: true },
  dashboard: { text: 'My Dashboard', exact: true },
  accessDenied: { text: 'Access Denied' },
  adminPanel: { text: 'Admin Panel', exact: true },
  userManagement: { text: 'User Management', exact: true },
  userSupport: { text: 'User Support', exact: true },
  profile: { text: 'My Profile', exact: true },
  settings: { text: 'Account Information' },
} satisfies Record<string, Marker | ((title: string) => Marker)>;

const PROTECTED = ['/', '/upload', '/dashboard', '/admin', '/admin/users', '/admin/support', '/profile', '/settings', '/google-drive-setup', '/no-such-page'];

let product: RunningProduct;
let browser: Browser;
beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: 'root@example.com' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function expectScreen(page: Page, path: string, marker: Marker): Promise<void> {
  await page.goto(`${product.url}${path}`);
  const target = page.locator('main').getByText(marker.text, { exact: marker.exact ?? false }).first();
  await target.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {
    throw new Error(`${path}: expected "${marker.text}" in <main>`);
  });
}

async function newSignedInPage(email: string, name: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, product.url, email, name);
  return { context, page };
}

async function acceptTerms(page: Page): Promise<void> {
  await page.goto(`${product.url}/terms-acceptance`);
  const accept = page.getByRole('button', { name: 'Accept and Continue' });
  expect(await accept.isDisabled()).toBe(true);
  await page.getByRole('checkbox').check();
  await accept.click();
  await page.getByText('Terms Accepted').first().waitFor({ timeout: 10_000 });
  await page.waitForURL(`${product.url}/`);
}

describe('a new user', () => {
  it('signs in through the development identity provider, accepts the terms and reaches the gallery home', async () => {
    const { context, page } = await newSignedInPage('ada@example.com', 'Ada Lovelace');
    await page.getByRole('button', { name: 'Accept and Continue' }).waitFor();
    await acceptTerms(page);
    await page.getByText('Welcome back, Ada Lovelace').waitFor({ timeout: 10_000 });
    await context.close();
  });
});

describe('route availability', () => {
  it('signed out: public pages and sign-in cards', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const expected: Array<[string, Marker]> = [
      ['/', SCREEN.landing],
      ['/upload', SCREEN.uploadSignIn],
      ['/dashboard', SCREEN.signInCard('Dashboard')],
      ['/admin', SCREEN.signInCard('Admin')],
      ['/admin/users', SCREEN.signInCard('Admin')],
      ['/admin/support', SCREEN.signInCard('Admin')],
      ['/profile', SCREEN.signInCard('Profile')],
      ['/settings', SCREEN.signInCard('Settings')],
      ['/legal', SCREEN.legal],
      ['/contact', SCREEN.contact],
      ['/terms-acceptance', SCREEN.terms],
      ['/google-drive-setup', SCREEN.driveSetup],
      ['/no-such-page', SCREEN.notFound],
    ];
    for (const [path, marker] of expected) await expectScreen(page, path, marker);
    // The landing page has no navbar; every sign-in button leads to /api/login.
    await page.goto(`${product.url}/dashboard`);
    const signInLink = page.locator('main').getByRole('link', { name: 'Sign In' }).or(page.locator('main').getByRole('button', { name: 'Sign In' }));
    await signInLink.first().click();
    await page.waitForURL(/\/interaction\//);
    await context.close();
  });

  it('offers the notices, licence and sources of the HEIC decoder the web app ships, linked from /legal', async () => {
    const page = await browser.newPage();
    await page.goto(`${product.url}/legal`);
    const link = page.getByRole('link', { name: 'notices, licence and sources' });
    const response = await page.request.get(new URL((await link.getAttribute('href'))!, product.url).href);
    expect(response.status()).toBe(200);
    const text = await response.text();
    expect(text).toContain('libheif-js');
    expect(text).toContain('GNU LESSER GENERAL PUBLIC LICENSE');
    expect(text).toMatch(/Source: https:\/\/github\.com\//);
    await page.close();
  });

  it('signed in without accepted terms: legal, contact and terms only; everything else asks for acceptance', async () => {
    const { context, page } = await newSignedInPage('pending@example.com', 'Penny Pending');
    await expectScreen(page, '/legal', SCREEN.legal);
    await expectScreen(page, '/contact', SCREEN.contact);
    await expectScreen(page, '/terms-acceptance', SCREEN.terms);
    for (const path of PROTECTED) await expectScreen(page, path, SCREEN.terms);
    await context.close();
  });

  it('signed in with accepted terms: the whole product, and a not-found page for anything else', async () => {
    const { context, page } = await newSignedInPage('member@example.com', 'Mem Ber');
    await acceptTerms(page);
    const expected: Array<[string, Marker]> = [
      ['/', SCREEN.home],
      ['/upload', SCREEN.upload],
      ['/dashboard', SCREEN.dashboard],
      ['/admin', SCREEN.accessDenied],
      ['/profile', SCREEN.profile],
      ['/settings', SCREEN.settings],
      ['/legal', SCREEN.legal],
      ['/contact', SCREEN.contact],
      ['/terms-acceptance', SCREEN.terms],
      ['/google-drive-setup', SCREEN.driveSetup],
      ['/no-such-page', SCREEN.notFound],
    ];
    for (const [path, marker] of expected) await expectScreen(page, path, marker);
    // A plain user sees no Admin link.
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await context.close();
  });

  it('an administrator reaches the admin pages and sees the Admin link', async () => {
    const { context, page } = await newSignedInPage('root@example.com', 'Rita Root');
    await acceptTerms(page);
    await expectScreen(page, '/admin', SCREEN.adminPanel);
    await expectScreen(page, '/admin/users', SCREEN.userManagement);
    await expectScreen(page, '/admin/support', SCREEN.userSupport);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Admin', exact: true }).first().waitFor({ timeout: 10_000 });
    await context.close();
  });
});

describe('the API reference', () => {
  it('shows every route of /api/openapi.json at /api/docs, under the product\'s Content Security Policy, with no console error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${product.url}/api/docs`);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    const document = (await (await page.request.get(`${product.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(await page.locator('.opblock').count()).toBe(operations);
    await page.getByText('/api/photos/{id}/vote').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the first screen of a framed page', () => {
  it('asks for its frame and page code with the entry, not after the entry has run, and fetches each file once', async () => {
    const { context, page } = await newSignedInPage('grace@example.com', 'Grace Hopper');
    await acceptTerms(page);
    const storageState = await context.storageState();
    await context.close();
    for (const [path, chunk, marker] of [
      ['/upload', 'upload', SCREEN.upload],
      ['/dashboard', 'dashboard', SCREEN.dashboard],
      ['/profile', 'profile', SCREEN.profile],
    ] as const) {
      // A context of its own: an empty cache, so every file of the first screen is fetched and timed.
      const fresh = await browser.newContext({ storageState });
      const first = await fresh.newPage();
      // A phone's round trip: the entry then arrives well after index.html's scripts have run, whatever this machine's speed.
      const cdp = await fresh.newCDPSession(first);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: -1 });
      await expectScreen(first, path, marker);
      const scripts = await first.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime, responseEnd: (entry as PerformanceResourceTiming).responseEnd })),
      );
      const entry = scripts.find((script) => /^\/assets\/index-[\w-]+\.js$/.test(script.path));
      const pageCode = scripts.find((script) => new RegExp(`^/assets/${chunk}-[\\w-]+\\.js$`).test(script.path));
      expect(entry, `${path}: the entry's timing`).toBeDefined();
      expect(pageCode, `${path}: the page's chunk`).toBeDefined();
      // Asked for before the entry had even arrived: only index.html's hint can do that.
      expect(pageCode!.startTime, `${path}: the page's chunk asked for before the entry arrived`).toBeLessThan(entry!.responseEnd);
      const paths = scripts.map((script) => script.path);
      expect(paths.length, `${path}: each script fetched once`).toBe(new Set(paths).size);
      await fresh.close();
    }
  });
});
