import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptTerms, expectText, launchBrowser, signIn } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));
const MEMBER = { email: 'mo@example.com', name: 'Mo Member' };
const VIEWER = { email: 'val@example.com', name: 'Val Viewer' };
const ADMIN = { email: 'root@example.com', name: 'Rita Root' };
const TO_REJECT = 'A crack that is really a shadow';
const TO_APPROVE = 'A crack across the whole pavement';
const REASON = 'This is a shadow, not a crack.';
const VISITOR = { name: 'Sam Sender', email: 'sam@example.com', subject: 'A question about votes', message: 'Can I change my vote later?' };

let product: RunningProduct;
let browser: Browser;

async function member(person: { email: string; name: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, product.url, person.email, person.name).catch(async () => page.waitForURL(/terms-acceptance/));
  await acceptTerms(page, product.url);
  return { context, page };
}

async function upload(context: BrowserContext, description: string): Promise<void> {
  const response = await context.request.post(`${product.url}/api/photos`, {
    multipart: { description, photo: { name: 'crack.png', mimeType: 'image/png', buffer: photoPng } },
  });
  expect(response.status()).toBe(201);
}

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('administration in Chromium', () => {
  let owner: { context: BrowserContext; page: Page };
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    [owner, admin] = [await member(MEMBER), await member(ADMIN)];
  });

  it('reviews uploads: a rejection with its reason reaches the owner, an approval reaches the gallery', async () => {
    await admin.page.goto(`${product.url}/admin`);
    await expectText(admin.page, 'Admin Panel');
    await upload(owner.context, TO_REJECT);
    await upload(owner.context, TO_APPROVE);

    // The pending list is polled every 5 s: both appear without a reload.
    const reject = admin.page.getByRole('button', { name: `Reject ${TO_REJECT}` });
    await reject.waitFor({ timeout: 15_000 });
    await reject.click();
    const dialog = admin.page.getByRole('dialog', { name: 'Reject Photo' });
    await dialog.getByRole('button', { name: 'Reject Photo' }).click();
    await expectText(admin.page, 'Please provide a reason for rejection.');
    await dialog.getByLabel('Reason for rejection').fill(REASON);
    await dialog.getByRole('button', { name: 'Reject Photo' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // A decision is held while its toast offers Undo (5 s), then sent; the approval's toast sends the rejection.
    const approvalSent = admin.page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.request().postData() === JSON.stringify({ status: 'approved' }),
      { timeout: 20_000 },
    );
    await admin.page.getByRole('button', { name: `Approve ${TO_APPROVE}` }).click();
    await expect.poll(() => admin.page.getByRole('button', { name: `Approve ${TO_APPROVE}` }).count(), { timeout: 10_000 }).toBe(0);
    expect((await approvalSent).status()).toBe(200);

    await owner.page.goto(`${product.url}/dashboard`);
    await expectText(owner.page, REASON);

    const viewer = await member(VIEWER);
    await viewer.page.goto(product.url);
    await viewer.page.getByRole('button', { name: /All Snaps/ }).click();
    await viewer.page.getByRole('button', { name: `View photo by ${MEMBER.name}` }).first().waitFor({ timeout: 15_000 });
    await expectText(viewer.page, TO_APPROVE);
    expect(await viewer.page.getByText(TO_REJECT).count()).toBe(0);
    await viewer.context.close();
  });

  it('brings a signed-out visitor’s message to User Support as New; moving it to In Progress drops the badge', async () => {
    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${product.url}/contact`);
    await page.getByLabel('Full Name').fill(VISITOR.name);
    await page.getByLabel('Email Address').fill(VISITOR.email);
    await page.getByLabel('Subject').fill(VISITOR.subject);
    await page.getByLabel('Message').fill(VISITOR.message);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expectText(page, 'Message Sent!');
    await visitor.close();

    await admin.page.goto(`${product.url}/admin`);
    const badge = admin.page.getByLabel('1 new message');
    await badge.waitFor({ timeout: 15_000 });

    await admin.page.goto(`${product.url}/admin/support`);
    await expectText(admin.page, VISITOR.subject);
    await expectText(admin.page, VISITOR.message);
    await admin.page.getByRole('combobox', { name: `Status of the message from ${VISITOR.name}` }).click();
    await admin.page.getByRole('option', { name: 'In Progress' }).click();
    await expectText(admin.page, 'Status Updated');

    await admin.page.goto(`${product.url}/admin`);
    await expectText(admin.page, 'Admin Panel');
    await expect.poll(() => admin.page.getByLabel(/new messages?$/).count(), { timeout: 10_000 }).toBe(0);
  });

  it('shows a member Access Denied on every admin page', async () => {
    for (const path of ['/admin', '/admin/users', '/admin/support']) {
      await owner.page.goto(`${product.url}${path}`);
      await expectText(owner.page, 'Access Denied');
      await expectText(owner.page, "You don't have permission to access the admin panel.");
    }
  });
});
