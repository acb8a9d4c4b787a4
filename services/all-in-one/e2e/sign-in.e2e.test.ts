import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acceptTerms, expectText, launchBrowser, signedInMember } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));
const ADMIN = { email: 'root@example.com', name: 'Root Admin' };

let product: RunningProduct;
let browser: Browser;
beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Opens `path` signed out, presses the Sign In button of its sign-in card and signs in on the provider's form. */
async function signInFrom(page: Page, path: string, email: string, name: string): Promise<void> {
  await page.goto(`${product.url}${path}`);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/interaction\//);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="name"]').fill(name);
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  await page.waitForURL((url) => url.origin === product.url && !url.pathname.startsWith('/api/'));
}

describe('sign-in in Chromium', () => {
  it('comes back to the protected page it started from', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInFrom(page, '/dashboard', 'returning@example.com', 'Rita Return');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // A new member accepts the terms first (which then goes home, as the spec says); the next sign-in from the
    // dashboard's card comes straight back to the dashboard.
    await acceptTerms(page, product.url);
    await context.close();

    const again = await browser.newContext();
    const next = await again.newPage();
    await signInFrom(next, '/dashboard', 'returning@example.com', 'Rita Return');
    expect(new URL(next.url()).pathname).toBe('/dashboard');
    await next.getByRole('heading', { name: 'My Dashboard' }).waitFor({ timeout: 15_000 });
    await again.close();
  });

  it('keeps the name of a member who signs in again without one, at home and beside their photos', async () => {
    const ada = await signedInMember(browser, product.url, { email: 'ada@example.com', name: 'Ada Lovelace' });
    const upload = await ada.context.request.post(`${product.url}/api/photos`, {
      multipart: { description: 'A crack in the engine', photo: { name: 'crack.png', mimeType: 'image/png', buffer: photoPng } },
    });
    expect(upload.status()).toBe(201);
    const { id } = (await upload.json()) as { id: number };
    const admin = await signedInMember(browser, product.url, ADMIN);
    expect((await admin.context.request.patch(`${product.url}/api/admin/photos/${id}/status`, { data: { status: 'approved' } })).status()).toBe(200);
    await admin.context.close();
    await ada.context.close();

    // An empty name on the development provider's form sends no name claim, as Sign in with Apple does after the
    // first sign-in.
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInFrom(page, '/profile', 'ada@example.com', '');
    expect(new URL(page.url()).pathname).toBe('/profile');
    await page.goto(product.url);
    await expectText(page, 'Welcome back, Ada Lovelace');
    // The photo service hears of every sign-in through auth.user.updated within moments: give it a few, then look.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await page.reload();
    await expectText(page, 'Photo by Ada Lovelace');
    expect(await page.getByText(/Photo by User /).count()).toBe(0);
    await context.close();
  });
});
