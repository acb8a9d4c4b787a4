import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { isPhotoMade, launchBrowser, liftUploadAllowance, reviewThroughApi, signedInMember } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';
import { sharp } from './sharp.js';

// Real files from cameras and phones (services/storage/test/fixtures/real/README.md says where each comes from),
// uploaded through the upload page as a member picks them, approved by an admin, then looked at in Chromium: every
// gallery card and the viewer show them upright, the owner's original has no GPS left, and nothing answers 5xx.

const ADMIN = { email: 'ada.admin@example.com', name: 'Ada Admin' };
const OWNER = { email: 'pia.phone@example.com', name: 'Pia Phone' };

interface RealUpload {
  fixture: string;
  /** The name a phone or camera gives the file. */
  name: string;
  mimeType: 'image/jpeg' | 'image/webp' | 'image/heic';
  description: string;
  /** The upright size, as the product stores it. */
  upright: [number, number];
  /** The file carries GPS coordinates (that must not reach the stored original). */
  gps: boolean;
}

// Nine: one gallery page.
const UPLOADS: RealUpload[] = [
  {
    fixture: 'iphone-4s-orientation-6-gps.jpg',
    name: 'IMG_0421.JPG',
    mimeType: 'image/jpeg',
    description: 'iPhone 4S, held upright (EXIF orientation 6), with GPS',
    upright: [102, 205],
    gps: true,
  },
  {
    fixture: 'iphone-4s-orientation-8-gps.derived.jpg',
    name: 'IMG_0422.JPG',
    mimeType: 'image/jpeg',
    description: 'iPhone 4S, held upright the other way (EXIF orientation 8), with GPS',
    upright: [102, 205],
    gps: true,
  },
  { fixture: 'nikon-d2h-gps-xmp.jpg', name: 'DSC_0042.JPG', mimeType: 'image/jpeg', description: 'Nikon D2H with GPS and XMP', upright: [500, 375], gps: true },
  {
    fixture: 'canon-eos-rebel-t6-adobe-rgb.jpg',
    name: 'IMG_2042.jpg',
    mimeType: 'image/jpeg',
    description: 'Canon EOS Rebel T6 in Adobe RGB from Lightroom',
    upright: [2000, 1072],
    gps: false,
  },
  {
    fixture: 'canon-eos-rebel-t6-adobe-rgb.derived.webp',
    name: 'IMG_2042.webp',
    mimeType: 'image/webp',
    description: 'The Canon photo as WebP with its Adobe RGB profile, EXIF and XMP',
    upright: [2000, 1072],
    gps: false,
  },
  { fixture: 'casio-qv-r51-portrait.jpg', name: 'CIMG0042.JPG', mimeType: 'image/jpeg', description: 'Casio QV-R51 portrait', upright: [300, 400], gps: false },
  { fixture: 'nintendo-3ds-mpo.jpg', name: 'HNI_0042.JPG', mimeType: 'image/jpeg', description: 'Nintendo 3DS two-picture MPO', upright: [640, 480], gps: false },
  { fixture: 'libheif-example.heic', name: 'IMG_4242.HEIC', mimeType: 'image/heic', description: 'HEIF with two images and thumbnails', upright: [1280, 854], gps: false },
  {
    fixture: 'nokia-n70-grid-irot.derived.heic',
    name: 'IMG_4243.HEIC',
    mimeType: 'image/heic',
    description: 'HEIC laid out as iPhones do: a grid of tiles, turned by irot',
    upright: [640, 480],
    gps: false,
  },
];

interface OwnPhoto {
  id: number;
  filename: string;
  description: string | null;
  width: number;
  height: number;
  originalUrl: string;
}

let product: RunningProduct;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };
let admin: { context: BrowserContext; page: Page };
/** Every answer of 500 or more any page got, as "status method path". */
const serverErrors: string[] = [];
const uploaded = new Map<string, { id: number; filename: string }>();

function watchForServerErrors(context: BrowserContext): void {
  context.on('response', (response) => {
    if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
}

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
  [owner, admin] = await Promise.all([signedInMember(browser, product.url, OWNER), signedInMember(browser, product.url, ADMIN)]);
  // The owner uploads every sample before any is reviewed, more than a member's upload allowance holds.
  await liftUploadAllowance(admin.context, product.url);
  watchForServerErrors(owner.context);
  watchForServerErrors(admin.context);
});
afterAll(async () => {
  console.log(['What Chromium showed (natural sizes):', ...[...seen].map(([fixture, sizes]) => `${fixture.padEnd(46)} ${sizes.join(', ')}`)].join('\n'));
  await owner?.context.close();
  await admin?.context.close();
  await browser?.close();
  await product?.stop();
});

/** width/height of an image, for comparing shapes whatever the size the browser got. */
const ratio = ([width, height]: readonly [number, number]) => width / height;

/** The image's decoded size, once it has loaded (a lazy image is scrolled to first). */
async function naturalSize(image: Locator): Promise<[number, number]> {
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  return image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight] as [number, number]);
}

/** What Chromium showed of each photo, printed at the end: fixture → where → width×height. */
const seen = new Map<string, string[]>();

function expectShape(actual: [number, number], upload: RealUpload, where: string): void {
  seen.set(upload.fixture, [...(seen.get(upload.fixture) ?? []), `${where} ${actual.join('×')}`]);
  const [expected, got] = [ratio(upload.upright), ratio(actual)];
  expect(
    Math.abs(got - expected) / expected,
    `${upload.fixture} ${where}: ${actual.join('×')}, upright it is ${upload.upright.join('×')} (${expected > 1 ? 'landscape' : 'portrait'})`,
  ).toBeLessThan(0.03);
}

describe('real photos from phones and cameras, uploaded as a member uploads them', () => {
  it('each gets an upright preview on the upload page (HEIC decoded in the worker) and uploads', { timeout: 300_000 }, async () => {
    const { page } = owner;
    for (const upload of UPLOADS) {
      await page.goto(`${product.url}/upload`);
      await page.getByRole('heading', { name: 'Snap a Crack', exact: true, level: 1 }).waitFor();
      await page.locator('input[type="file"][aria-label="Photo file"]').setInputFiles({
        name: upload.name,
        mimeType: upload.mimeType,
        buffer: readFileSync(new URL(`../../storage/test/fixtures/real/${upload.fixture}`, import.meta.url)),
      });
      // The browser applies EXIF orientation to a JPEG's preview; a HEIC's preview is the worker's upright JPEG.
      const preview = page.getByRole('img', { name: `Preview of ${upload.name}` });
      await preview.waitFor({ timeout: 60_000 });
      expectShape(await naturalSize(preview), upload, 'preview on the upload page');

      await page.getByLabel('Description (optional)').fill(upload.description);
      await page.getByRole('checkbox', { name: /I own this photo/ }).check();
      const answer = page.waitForResponse(isPhotoMade, {
        timeout: 60_000,
      });
      await page.getByRole('button', { name: 'Upload Photo' }).click();
      const response = await answer;
      expect(response.status(), `${upload.fixture}: ${await response.text()}`).toBe(201);
      uploaded.set(upload.fixture, (await response.json()) as { id: number; filename: string });
      await page.waitForURL(`${product.url}/dashboard`, { timeout: 15_000 });
    }
    expect(serverErrors).toEqual([]);
  });

  it('are stored upright, and the original its owner downloads has no GPS, EXIF, XMP, IPTC or ICC left', { timeout: 120_000 }, async () => {
    expect(uploaded.size, 'every photo was uploaded').toBe(UPLOADS.length);
    const listed = (await (await owner.context.request.get(`${product.url}/api/user/photos`)).json()) as OwnPhoto[] | { photos: OwnPhoto[] };
    const photos = Array.isArray(listed) ? listed : listed.photos;
    for (const upload of UPLOADS) {
      const photo = photos.find((candidate) => candidate.id === uploaded.get(upload.fixture)?.id);
      expect(photo, upload.fixture).toBeDefined();
      expect([photo!.width, photo!.height], `${upload.fixture}: the stored size`).toEqual(upload.upright);
      const original = await owner.context.request.get(`${product.url}${photo!.originalUrl}`);
      expect(original.status(), `${upload.fixture}: original`).toBe(200);
      const bytes = await original.body();
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height], `${upload.fixture}: the original's own size`).toEqual(upload.upright);
      expect(
        { exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, icc: meta.icc, orientation: meta.orientation },
        `${upload.fixture}: metadata left in the original`,
      ).toEqual({ exif: undefined, xmp: undefined, iptc: undefined, icc: undefined, orientation: undefined });
      // GPS lives in EXIF (and XMP's exif:GPSLatitude): neither block may be left in any form.
      if (upload.gps) expect(['Exif\0\0', 'GPSLatitude'].filter((marker) => bytes.includes(marker)), `${upload.fixture}: GPS left in the original`).toEqual([]);
    }
  });

  it('once approved, are upright on their gallery cards and in the viewer', { timeout: 180_000 }, async () => {
    for (const upload of UPLOADS) await reviewThroughApi(admin.context, product.url, uploaded.get(upload.fixture)!.id, { status: 'approved' });
    const { page } = admin;
    await page.goto(`${product.url}/`);
    await page.getByRole('button', { name: /All Snaps/ }).click();
    for (const upload of UPLOADS) {
      const card = page.getByRole('article', { name: upload.description });
      await card.waitFor({ timeout: 15_000 });
      expectShape(await naturalSize(card.locator('img').first()), upload, 'gallery card');

      await card.locator('img').first().click();
      const viewer = page.getByRole('dialog');
      await viewer.waitFor();
      const shown = viewer.locator('[data-protected-image] img').first();
      await shown.waitFor({ timeout: 30_000 });
      expectShape(await naturalSize(shown), upload, 'viewer');
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'hidden' });
    }
    expect(serverErrors).toEqual([]);
  });
});
