import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fixtureImage, horizontalOverflow, launchBrowser, reviewThroughApi, setTheme, signedInMember, uploadThroughApi, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

/** Notifications in Chromium: the bell counts a notice the moment an admin decides, with no reload, and lists it. */

const OWNER: Person = { email: 'nora@example.com', name: 'Nora Notified' };
const ADMIN: Person = { email: 'ada@example.com', name: 'Ada Admin' };

let product: RunningProduct;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };
let admin: { context: BrowserContext; page: Page };

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
  [owner, admin] = await Promise.all([signedInMember(browser, product.url, OWNER), signedInMember(browser, product.url, ADMIN)]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

describe('the bell', () => {
  it('counts and lists a decision as it happens, and marks it read', async () => {
    const { page } = owner;
    await page.goto(`${product.url}/dashboard`);
    await bell(page).waitFor();
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));

    const { id } = await uploadThroughApi(owner.context, product.url, 'Crack in the bridge', fixtureImage('photo.png'));
    await reviewThroughApi(admin.context, product.url, id, { status: 'rejected', rejectionReason: 'A face is visible.' });
    // Pushed over the open stream: the count changes without a reload or a poll of the list.
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications, 1 unread');
    expect(requests.filter((path) => path === '/api/notifications')).toEqual([]);
    // Push notifications are on by default: the notice shows as a toast too.
    await page.getByRole('region', { name: /Notifications/ }).getByText('Your photo was not approved').first().waitFor();

    await bell(page).click();
    const item = page.getByRole('menuitem', { name: /Your photo was not approved/ });
    await item.waitFor();
    expect(await item.innerText()).toContain('"Crack in the bridge": A face is visible.');
    await item.click();
    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications');

    await page.goto(`${product.url}/notifications`);
    await page.getByText('"Crack in the bridge": A face is visible.').waitFor();
  });

  it('fits a phone, light and dark', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await owner.context.storageState() });
    try {
      const page = await phone.newPage();
      for (const theme of ['light', 'dark'] as const) {
        await page.goto(`${product.url}/notifications`);
        await setTheme(page, theme);
        await bell(page).waitFor();
        expect((await horizontalOverflow(page)).overflow, theme).toBe(0);
        await bell(page).click();
        await page.getByRole('menu').waitFor();
        expect((await horizontalOverflow(page)).overflow, `${theme}, menu open`).toBe(0);
        if (process.env.E2E_SCREENSHOTS) {
          mkdirSync(process.env.E2E_SCREENSHOTS, { recursive: true });
          // After the menu's fade-in.
          await page.waitForTimeout(400);
          await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, `notifications-390-${theme}.png`) });
        }
        await page.keyboard.press('Escape');
      }
    } finally {
      await phone.close();
    }
  });
});
