import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { horizontalOverflow, launchBrowser, setTheme, signedInMember, uploadThroughApi, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';
import { sharp } from './sharp.js';

const ADMIN: Person = { email: 'rhea.reviewer@example.com', name: 'Rhea Reviewer' };
/** 60 characters, as some identity providers send (members may choose 50 at most). */
const LONG_NAME = 'Maximiliana Konstantinopoulou-Wolfeschlegelsteinhausenberger';
const LONG: Person = { email: 'maximiliana.konstantinopoulou@example.com', name: LONG_NAME };
/** Signs in without a name: their photos read "User <id>". */
const NAMELESS: Person = { email: 'nameless@example.com', name: '' };
const REASON = 'The crack is hidden behind the lamp post.';
/** The Undo window: the decision's toast lives 5 s (SPEC §9). */
const UNDO_WINDOW_MS = 5000;

/** A photo whose edges show: red corner blocks, so a person looking at a screenshot sees whether it is whole. */
async function framedPhoto(width: number, height: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  const edge = Math.round(Math.min(width, height) / 10);
  const corner = await sharp({ create: { width: edge, height: edge, channels: 3, background: { r: 230, g: 30, b: 30 } } }).jpeg({ quality: 90 }).toBuffer();
  return sharp({ create: { width, height, channels: 3, background } })
    .composite([
      { input: corner, left: 0, top: 0 },
      { input: corner, left: width - edge, top: 0 },
      { input: corner, left: 0, top: height - edge },
      { input: corner, left: width - edge, top: height - edge },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

interface Uploaded {
  id: number;
  description: string;
  width: number;
  height: number;
}

/** Pending oldest first: the review list shows them in this order. */
const PHOTOS = [
  { owner: 'long', description: 'Portrait: a crack running down the lamp post', width: 1200, height: 1600 },
  { owner: 'long', description: 'Landscape: the kerb split in two', width: 1600, height: 1200 },
  { owner: 'nameless', description: 'Square: a cracked tile by the door', width: 1200, height: 1200 },
  { owner: 'nameless', description: 'Panorama: the sea wall', width: 2400, height: 800 },
  { owner: 'long', description: 'Tall: a crack up the chimney', width: 900, height: 1950 },
] as const;

let product: RunningProduct;
let browser: Browser;
let admin: { context: BrowserContext; page: Page };
const photos: Uploaded[] = [];

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
  admin = await signedInMember(browser, product.url, ADMIN);
  const owners = {
    long: (await signedInMember(browser, product.url, LONG)).context,
    nameless: (await signedInMember(browser, product.url, NAMELESS)).context,
  };
  for (const [index, photo] of PHOTOS.entries()) {
    const buffer = await framedPhoto(photo.width, photo.height, { r: 60 + index * 30, g: 140, b: 200 - index * 30 });
    const { id } = await uploadThroughApi(owners[photo.owner], product.url, photo.description, {
      name: `PXL_20251103_14223351${index}.jpg`,
      mimeType: 'image/jpeg',
      buffer,
    });
    photos.push({ id, description: photo.description, width: photo.width, height: photo.height });
  }
  await Promise.all(Object.values(owners).map((context) => context.close()));
  // A support message from someone with a long name and an unbroken subject, for the width checks.
  const contact = await admin.context.request.post(`${product.url}/api/contact`, {
    data: { name: LONG_NAME, email: LONG.email, subject: 'Cracks'.repeat(12), message: `Hello from ${LONG_NAME}.` },
    headers: { Origin: product.url },
  });
  expect(contact.status(), await contact.text()).toBeLessThan(300);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** A photo's status and reason as the server has them, through the admin API. */
async function serverStatus(id: number): Promise<{ status: string; rejectionReason: string | null }> {
  const response = await admin.context.request.get(`${product.url}/api/admin/photos/all?page=1&limit=100`);
  expect(response.status()).toBe(200);
  const { photos: listed } = (await response.json()) as { photos: Array<{ id: number; status: string; rejectionReason: string | null }> };
  const photo = listed.find((p) => p.id === id);
  if (!photo) throw new Error(`photo ${id} is not listed`);
  return { status: photo.status, rejectionReason: photo.rejectionReason };
}

const focusedPhotoId = (page: Page) => page.evaluate(() => Number(document.activeElement?.getAttribute('data-photo-id') ?? NaN));
const card = (page: Page, photo: Uploaded) => page.locator(`li[data-photo-id="${photo.id}"]`);

/** Presses Tab until `isThere` holds for the focused element (a person tabbing through the page). */
async function tabUntil(page: Page, isThere: (page: Page) => Promise<boolean>, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isThere(page)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** The PATCH that sends `photo`'s decision, and when it left. */
function decisionSent(page: Page, photo: Uploaded): Promise<{ request: Request; at: number }> {
  return page
    .waitForRequest((request) => request.method() === 'PATCH' && new URL(request.url()).pathname === `/api/admin/photos/${photo.id}/status`, { timeout: 20_000 })
    .then((request) => ({ request, at: Date.now() }));
}

/** How the photo's image sits in its card: its box, the photo's own aspect, and whether anything around it clips it. */
function imageGeometry(page: Page, photo: Uploaded) {
  return card(page, photo)
    .locator('img')
    .first()
    .evaluate((img: HTMLImageElement) => {
      const box = img.getBoundingClientRect();
      const clippedBy: string[] = [];
      for (let element = img.parentElement; element && element.tagName !== 'UL'; element = element.parentElement) {
        const style = getComputedStyle(element);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const frame = element.getBoundingClientRect();
        const inside = box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5 && box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5;
        if (!inside) clippedBy.push(`<${element.tagName.toLowerCase()} class="${element.className}">`);
      }
      return {
        loaded: img.complete && img.naturalWidth > 0,
        aspect: box.width / box.height,
        naturalAspect: img.naturalWidth / img.naturalHeight,
        width: box.width,
        objectFit: getComputedStyle(img).objectFit,
        clippedBy,
      };
    });
}

describe('the admin review list in Chromium', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('shows the whole 1200×1600 portrait in its card at %i px: its box has the photo’s aspect and nothing clips it', async (width, height) => {
    const { page } = admin;
    await page.setViewportSize({ width, height });
    await page.goto(`${product.url}/admin`);
    const portrait = photos[0]!;
    await card(page, portrait).waitFor({ timeout: 15_000 });
    await card(page, portrait).scrollIntoViewIfNeeded();
    await expect.poll(async () => (await imageGeometry(page, portrait)).loaded, { timeout: 10_000 }).toBe(true);
    const geometry = await imageGeometry(page, portrait);
    expect(geometry.aspect).toBeCloseTo(1200 / 1600, 2);
    expect(geometry.naturalAspect).toBeCloseTo(1200 / 1600, 2);
    expect(geometry.objectFit).not.toBe('cover');
    expect(geometry.clippedBy).toEqual([]);
    expect(geometry.width).toBeGreaterThan(100);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('reviews with the keyboard alone: A moves on and offers Undo, Undo keeps the photo pending, R sends after the window, Space opens the review view', { timeout: 120_000 }, async () => {
    const { page } = admin;
    const [portrait, landscape, square, panorama] = photos as [Uploaded, Uploaded, Uploaded, Uploaded];
    await page.goto(`${product.url}/admin`);
    await card(page, portrait).waitFor({ timeout: 15_000 });

    // Tab to the first card; A approves it: the toast offers Undo and focus is on the next card.
    await tabUntil(page, async (p) => (await focusedPhotoId(p)) === portrait.id);
    await page.keyboard.press('a');
    await page.getByText('The photo has been approved.').first().waitFor();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => focusedPhotoId(page)).toBe(landscape.id);
    await expect.poll(() => card(page, portrait).count()).toBe(0);

    // Undo from the keyboard: F8 reaches the notifications, Tab the Undo button. The card is back, with focus.
    await page.keyboard.press('F8');
    await tabUntil(page, async (p) => (await focusedText(p)) === 'Undo', 6);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedPhotoId(page)).toBe(portrait.id);
    await page.waitForTimeout(UNDO_WINDOW_MS + 1500);
    expect(await serverStatus(portrait.id)).toEqual({ status: 'pending', rejectionReason: null });
    expect(await card(page, portrait).count()).toBe(1);

    // R asks for the reason; the rejection leaves at once on screen and reaches the server after the window.
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: 'Reject Photo' });
    await dialog.waitFor();
    await page.keyboard.type(REASON);
    await tabUntil(page, async (p) => (await focusedText(p)) === 'Reject Photo', 6);
    const rejectionSent = decisionSent(page, portrait);
    const confirmedAt = Date.now();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('The photo has been rejected.').first().waitFor();
    await expect.poll(() => focusedPhotoId(page)).toBe(landscape.id);
    expect(await serverStatus(portrait.id)).toEqual({ status: 'pending', rejectionReason: null });
    const rejection = await rejectionSent;
    expect(rejection.at - confirmedAt).toBeGreaterThanOrEqual(UNDO_WINDOW_MS - 500);
    expect(rejection.request.postDataJSON()).toEqual({ status: 'rejected', rejectionReason: REASON });
    await expect.poll(() => serverStatus(portrait.id), { timeout: 10_000 }).toEqual({ status: 'rejected', rejectionReason: REASON });

    // Space opens the review view on the focused card: the whole display image, as large as the window allows.
    expect(await focusedPhotoId(page)).toBe(landscape.id);
    await page.keyboard.press('Space');
    const view = page.getByRole('dialog', { name: landscape.description });
    await view.waitFor();
    const image = view.getByTestId('review-view-image');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    // Measured once the dialog's zoom-in has settled.
    const shown = () =>
      image.evaluate((img: HTMLImageElement) => {
        const box = img.getBoundingClientRect();
        return { fit: getComputedStyle(img).objectFit, inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight };
      });
    await expect.poll(shown).toEqual({ fit: 'contain', inside: true });
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight)).toBeCloseTo(1600 / 1200, 2);

    // → and ← move through the list; A approves the photo shown and the view goes on to the next one.
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: square.description }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await view.waitFor();
    const approvalSent = decisionSent(page, landscape);
    await page.keyboard.press('a');
    await page.getByRole('dialog', { name: square.description }).waitFor();
    await page.getByText('The photo has been approved.').first().waitFor();

    // Escape closes the view onto the card of the photo it showed.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => focusedPhotoId(page)).toBe(square.id);
    expect(await card(page, landscape).count()).toBe(0);
    expect((await approvalSent).request.postDataJSON()).toEqual({ status: 'approved' });
    await expect.poll(() => serverStatus(landscape.id), { timeout: 10_000 }).toEqual({ status: 'approved', rejectionReason: null });
    expect(await serverStatus(square.id)).toEqual({ status: 'pending', rejectionReason: null });
    expect(await serverStatus(panorama.id)).toEqual({ status: 'pending', rejectionReason: null });
  });

  it('sends a decision still offering Undo when the admin leaves the page', async () => {
    const context = await browser.newContext({ storageState: await admin.context.storageState() });
    const page = await context.newPage();
    const panorama = photos[3]!;
    await page.goto(`${product.url}/admin`);
    await card(page, panorama).waitFor({ timeout: 15_000 });
    await card(page, panorama).focus();
    await page.keyboard.press('a');
    await page.getByText('The photo has been approved.').first().waitFor();
    await page.goto(`${product.url}/legal`);
    await context.close();
    await expect.poll(() => serverStatus(panorama.id), { timeout: 10_000 }).toEqual({ status: 'approved', rejectionReason: null });
  });

  it('never scrolls sideways on the admin pages at 320, 390 and 768 px, with a 60-character name and “User <id>” uploaders', { timeout: 90_000 }, async () => {
    const { page } = admin;
    const overflows: string[] = [];
    for (const width of [320, 390, 768]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [path, ready] of [
        ['/admin', () => card(page, photos[4]!).waitFor({ timeout: 15_000 })],
        ['/admin/users', () => page.getByText(LONG_NAME).first().waitFor({ timeout: 15_000 })],
        ['/admin/support', () => page.getByText(`Hello from ${LONG_NAME}.`).waitFor({ timeout: 15_000 })],
      ] as const) {
        await page.goto(`${product.url}${path}`);
        await ready();
        await page.waitForLoadState('networkidle');
        const { overflow, culprits } = await horizontalOverflow(page);
        if (overflow > 0) overflows.push(`${path} at ${width} px: ${overflow} px, ${culprits.join(', ')}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(overflows, 'no sideways scrolling').toEqual([]);
    // The uploader without a name reads "User <id>" on their cards.
    await page.goto(`${product.url}/admin`);
    await expect.poll(() => card(page, photos[4]!).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByText(/^User \S{8,}/).count()).toBeGreaterThan(0);
  });

  // Screenshots for a person to look at; set E2E_SCREENSHOTS=/some/dir to take them.
  it.runIf(process.env.E2E_SCREENSHOTS)('screenshots of the admin pages', { timeout: 120_000 }, async () => {
    const dir = process.env.E2E_SCREENSHOTS!;
    mkdirSync(dir, { recursive: true });
    const { page } = admin;
    for (const theme of ['light', 'dark'] as const) {
      await page.goto(`${product.url}/admin`);
      await setTheme(page, theme);
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        for (const path of ['/admin', '/admin/users', '/admin/support']) {
          await page.goto(`${product.url}${path}`);
          await page.waitForLoadState('networkidle');
          const name = path.slice(1).replace('/', '-');
          await page.screenshot({ path: join(dir, `${name}-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        }
        await page.goto(`${product.url}/admin`);
        await card(page, photos[4]!).waitFor({ timeout: 15_000 });
        await card(page, photos[4]!).focus();
        await page.keyboard.press('Space');
        await page.getByRole('dialog').waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(dir, `admin-review-view-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await page.keyboard.press('Escape');
        await page.goto(`${product.url}/admin/users`);
        await page.getByRole('switch', { name: `Administrator: ${LONG_NAME}` }).first().click();
        await page.getByRole('alertdialog').waitFor();
        await page.screenshot({ path: join(dir, `admin-users-confirm-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await page.keyboard.press('Escape');
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
