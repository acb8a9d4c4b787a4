import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { RESUMABLE_UPLOAD } from '@snapcracks/http-contract';
import { expectText, launchBrowser, signedInMember } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

/**
 * Issue 22, "Uploads that survive a bad connection", in Chromium: a photo of several chunks whose connection drops
 * half-way goes on by itself from the chunk it stopped at, and one left by a reload goes on from there when the member
 * chooses the same file again.
 */

const CAMERA_JPEG = readFileSync(new URL('../../storage/test/fixtures/real/canon-eos-rebel-t6-adobe-rgb.jpg', import.meta.url));

/**
 * A real camera photo made larger with `extraMb` of application segments (what some cameras' maker data weighs): a
 * valid JPEG of several chunks, whose metadata the server strips.
 */
function bulkyJpeg(extraMb: number): Buffer {
  const segment = Buffer.alloc(65_535 + 2);
  segment.writeUInt16BE(0xffef, 0);
  segment.writeUInt16BE(65_535, 2);
  const segments = Array.from({ length: Math.ceil((extraMb * 1024 * 1024) / segment.length) }, (_, i) => {
    const copy = Buffer.from(segment);
    copy.fill(i & 0xff, 4);
    return copy;
  });
  return Buffer.concat([CAMERA_JPEG.subarray(0, 2), ...segments, CAMERA_JPEG.subarray(2)]);
}

let product: RunningProduct;
let browser: Browser;
let member: { context: BrowserContext; page: Page };
const files = mkdtempSync(join(tmpdir(), 'snapcracks-resumable-'));

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  member = await signedInMember(browser, product.url, { email: 'tunnel@example.com', name: 'Tia Tunnel' });
});
afterAll(async () => {
  await member?.context.close();
  await browser?.close();
  await product?.stop();
});

/** A file on disk, so the browser sees the same file (name, size, date) each time it is chosen. */
function photoOnDisk(name: string, extraMb: number): { path: string; size: number } {
  const bytes = bulkyJpeg(extraMb);
  const path = join(files, name);
  writeFileSync(path, bytes);
  return { path, size: bytes.byteLength };
}

/** The Upload-Offset of every chunk the page sends, in order. */
function chunkOffsets(page: Page): number[] {
  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes(RESUMABLE_UPLOAD.path)) offsets.push(Number(request.headers()['upload-offset']));
  });
  return offsets;
}

async function chooseAndSend(page: Page, path: string): Promise<void> {
  await page.goto(`${product.url}/upload`);
  await page.getByRole('heading', { name: 'Snap a Crack', exact: true, level: 1 }).waitFor();
  await page.locator('input[type="file"][aria-label="Photo file"]').setInputFiles(path);
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).click();
  await page.getByRole('button', { name: 'Upload Photo' }).click();
}

async function myPhotoCount(context: BrowserContext): Promise<number> {
  const response = await context.request.get(`${product.url}/api/user/photos`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as unknown[]).length;
}

describe('an upload on a bad connection', () => {
  it('waits while the connection is gone, then goes on by itself from the chunk it had reached', async () => {
    const { context, page } = member;
    const photo = photoOnDisk('PXL_20261129_tunnel.jpg', 7.5);
    // Nearly the 10 MB a photo may be: five chunks.
    expect(photo.size).toBeGreaterThan(9 * 1024 * 1024);
    expect(photo.size).toBeLessThan(10 * 1024 * 1024);
    const before = await myPhotoCount(context);
    const offsets = chunkOffsets(page);
    let cut = false;
    // The second chunk never arrives: the phone goes into a tunnel as it is sent.
    await page.route(`**${RESUMABLE_UPLOAD.path}/*`, async (route: Route) => {
      const request = route.request();
      if (!cut && request.method() === 'PATCH' && Number(request.headers()['upload-offset']) > 0) {
        cut = true;
        await context.setOffline(true);
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });

    await chooseAndSend(page, photo.path);
    await expectText(page, 'Connection lost. The upload will go on by itself when you are back online.');
    const stalled = Number(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'));
    expect(stalled).toBeGreaterThan(0);
    expect(stalled).toBeLessThan(100);
    // Waiting is not failing: no error toast, and the member can still cancel.
    await expect.poll(() => page.getByText('Upload Failed').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true);

    await context.setOffline(false);
    await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
    await expectText(page, 'Your photo was uploaded and is awaiting review.');
    await page.unroute(`**${RESUMABLE_UPLOAD.path}/*`);

    // The first chunk went once: after the cut, every chunk starts where the stored bytes end.
    expect(offsets[0]).toBe(0);
    const cutAt = offsets[1]!;
    expect(cutAt).toBe(RESUMABLE_UPLOAD.chunkBytes);
    expect(offsets.slice(2).every((offset) => offset >= cutAt), offsets.join(', ')).toBe(true);
    expect(offsets.filter((offset) => offset === 0)).toHaveLength(1);
    expect(await myPhotoCount(context)).toBe(before + 1);
  });

  it('goes on after a reload when the member chooses the same file again, sending only the rest', async () => {
    const { context, page } = member;
    const photo = photoOnDisk('IMG_20261129_reload.jpg', 6);
    const before = await myPhotoCount(context);
    let blocked = false;
    // After the first chunk, nothing more gets through, until the member reloads.
    await page.route(`**${RESUMABLE_UPLOAD.path}/*`, async (route: Route) => {
      const request = route.request();
      if (request.method() === 'PATCH' && Number(request.headers()['upload-offset']) > 0) {
        blocked = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await chooseAndSend(page, photo.path);
    await expect.poll(() => blocked, { timeout: 30_000 }).toBe(true);

    await page.reload();
    await page.unroute(`**${RESUMABLE_UPLOAD.path}/*`);
    // The page remembers it, and says how to go on.
    await expectText(page, /Your upload of IMG_20261129_reload\.jpg stopped at \d+%\. Choose the same photo to go on from there\./);
    const offsets = chunkOffsets(page);
    await chooseAndSend(page, photo.path);
    await expectText(page, 'Going on with your earlier upload of this photo.');
    await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
    // The bytes stored before the reload were not sent again.
    expect(offsets[0], offsets.join(', ')).toBe(RESUMABLE_UPLOAD.chunkBytes);
    expect(offsets.every((offset) => offset >= RESUMABLE_UPLOAD.chunkBytes)).toBe(true);
    expect(await myPhotoCount(context)).toBe(before + 1);
    // Made a photo: the browser has forgotten it, and choosing the file again starts a new upload.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')).length)).toBe(0);
  });
});
