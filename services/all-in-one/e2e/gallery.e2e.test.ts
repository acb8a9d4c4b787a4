import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptTerms, expectText, launchBrowser, signIn } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));
const UPLOADER = { email: 'una@example.com', name: 'Una Uploader' };
const VOTER = { email: 'vic@example.com', name: 'Vic Voter' };
const ADMIN = { email: 'ada@example.com', name: 'Ada Admin' };
const DESCRIPTION = 'A crack shaped like a lightning bolt';

let product: RunningProduct;
let browser: Browser;

async function member(person: { email: string; name: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, product.url, person.email, person.name).catch(async () => page.waitForURL(/terms-acceptance/));
  await acceptTerms(page, product.url);
  return { context, page };
}

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('the gallery in Chromium', () => {
  let photoId: number;

  beforeAll(async () => {
    const uploader = await member(UPLOADER);
    const admin = await member(ADMIN);
    const upload = await uploader.context.request.post(`${product.url}/api/photos`, {
      multipart: { description: DESCRIPTION, photo: { name: 'crack.png', mimeType: 'image/png', buffer: photoPng } },
    });
    expect(upload.status()).toBe(201);
    photoId = ((await upload.json()) as { id: number }).id;
    const review = await admin.context.request.patch(`${product.url}/api/admin/photos/${photoId}/status`, { data: { status: 'approved' } });
    expect(review.status()).toBe(200);
    await uploader.context.close();
    await admin.context.close();
  });

  it('shows a signed-out visitor the previews, the stats strip and Sign In to Rate', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(product.url);
    const previews = page.getByRole('list', { name: 'Community photos' }).getByRole('img');
    await expect.poll(() => previews.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => previews.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 })
      .toBe(true);
    const stats = page.getByRole('region', { name: 'Community stats' });
    await stats.waitFor();
    await expect.poll(async () => (await stats.innerText()).match(/\d/) !== null).toBe(true);
    await page.getByRole('link', { name: 'Sign In to Rate' }).first().waitFor();
    await context.close();
  });

  it('lets a member rate a photo from the dialog with the keyboard; it then leaves Need your Vote', async () => {
    const { context, page } = await member(VOTER);
    await page.goto(product.url);
    await page.getByRole('button', { name: /Need your Vote/ }).click();
    const view = page.getByRole('button', { name: `View photo by ${UPLOADER.name}` });
    await view.first().click();
    const dialog = page.getByRole('dialog', { name: `Photo by ${UPLOADER.name}` });
    await dialog.waitFor();
    await expectText(page, DESCRIPTION);

    // Into the star control with Tab, then the digit 4 casts the vote.
    const stars = dialog.getByRole('radiogroup');
    await stars.waitFor();
    // At once: the stars take a vote while the member's earlier rating is still loading.
    await stars.getByRole('radio').first().focus();
    await page.keyboard.press('4');
    await expectText(page, 'Vote Submitted');
    await expectText(page, 'Your vote has been recorded successfully.');
    await expect.poll(async () => dialog.innerText(), { timeout: 10_000 }).toMatch(/4\.0[\s\S]*1 vote/);
    await expect.poll(() => stars.getByRole('radio', { checked: true }).getAttribute('aria-label')).toMatch(/^4 stars?$/);

    // Escape dismisses the newest layer first (the toast), then the dialog.
    await expect
      .poll(async () => {
        await page.keyboard.press('Escape');
        return dialog.isVisible();
      }, { timeout: 10_000 })
      .toBe(false);
    await page.reload();
    await page.getByRole('button', { name: /Need your Vote/ }).click();
    await expectText(page, 'Oh snap! No cracks found!');
    expect(await page.getByRole('button', { name: `View photo by ${UPLOADER.name}` }).count()).toBe(0);

    // The rating shows in Top Rated for everyone, and the member's own rating comes back in the dialog.
    await page.getByRole('button', { name: /Top Rated/ }).click();
    await page.getByRole('button', { name: `View photo by ${UPLOADER.name}` }).first().click();
    await expect.poll(() => page.getByRole('dialog').getByRole('radio', { checked: true }).getAttribute('aria-label'), { timeout: 10_000 }).toMatch(/^4 stars?$/);
    await context.close();
  });
});
