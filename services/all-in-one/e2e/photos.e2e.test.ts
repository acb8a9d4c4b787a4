import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { acceptTerms, expectText, isPhotoMade, launchBrowser, progressSeen, recordProgressBars, setTheme, signIn } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';
import { sharp } from './sharp.js';

const MEMBER = { email: 'maker@example.com', name: 'Mia Maker' };
const ADMIN = { email: 'moderator@example.com', name: 'Moe Moderator' };
const DESCRIPTION = 'Zig-zag crack in the car park, bar over the number plate';

/** RGB of each quadrant of the test photo; the privacy bar is drawn over part of the top-left one. */
const QUADRANTS = {
  topLeft: [220, 40, 40],
  topRight: [40, 180, 60],
  bottomLeft: [40, 80, 220],
  bottomRight: [240, 200, 40],
} as const;
type Rgb = readonly [number, number, number];

/** An 800×600 PNG in four flat colours: easy to tell a black bar from the picture in any variant. */
async function quadrantPhoto(): Promise<Buffer> {
  const [width, height] = [800, 600];
  const quadrant = (rgb: Rgb) =>
    sharp({ create: { width: width / 2, height: height / 2, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
      .png()
      .toBuffer();
  const [tl, tr, bl, br] = await Promise.all(
    [QUADRANTS.topLeft, QUADRANTS.topRight, QUADRANTS.bottomLeft, QUADRANTS.bottomRight].map(quadrant),
  );
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite([
      { input: tl!, left: 0, top: 0 },
      { input: tr!, left: width / 2, top: 0 },
      { input: bl!, left: 0, top: height / 2 },
      { input: br!, left: width / 2, top: height / 2 },
    ])
    .png()
    .toBuffer();
}

interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface UserPhoto {
  id: number;
  filename: string;
  description: string | null;
  status: 'pending' | 'approved' | 'rejected';
  privacyBars: Bar[];
  thumbnailUrl: string;
  displayUrl: string;
  originalUrl: string;
}

interface Pixels {
  width: number;
  height: number;
  /** RGB at a point given in percent of the image. */
  at(xPercent: number, yPercent: number): Rgb;
}

async function decode(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(xPercent, yPercent) {
      const x = Math.min(info.width - 1, Math.floor((xPercent / 100) * info.width));
      const y = Math.min(info.height - 1, Math.floor((yPercent / 100) * info.height));
      const offset = (y * info.width + x) * info.channels;
      return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    },
  };
}

const isBlack = ([r, g, b]: Rgb) => Math.max(r, g, b) <= 24;
/** Lossy WebP shifts flat colours a little; 40 per channel still tells the four quadrants and black apart. */
const isNear = (actual: Rgb, expected: Rgb) => actual.every((value, i) => Math.abs(value - expected[i]!) <= 40);

/** Points on a 5×5 grid inside `bar`, kept `insetPercent` away from its edges (lossy encoders blur edges). */
function pointsInside(bar: Bar, insetPercent: number): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      points.push([
        bar.x + insetPercent + ((bar.width - 2 * insetPercent) * i) / 4,
        bar.y + insetPercent + ((bar.height - 2 * insetPercent) * j) / 4,
      ]);
    }
  }
  return points;
}

/** Checks that `bar` is burned in as black and that the rest of the picture is still the four quadrants. */
function expectRedacted(image: Pixels, bar: Bar, label: string): void {
  // Two percent of a 480-px thumbnail is about ten pixels: well clear of any blur at the bar's edge.
  for (const [x, y] of pointsInside(bar, 2)) {
    expect(isBlack(image.at(x, y)), `${label}: (${x.toFixed(1)}%, ${y.toFixed(1)}%) under the bar is black, got ${image.at(x, y)}`).toBe(true);
  }
  const outside: Array<[number, number, Rgb]> = [
    // The top-left quadrant around the bar (the bar covers roughly 5–40 %).
    [bar.x / 2, bar.y / 2, QUADRANTS.topLeft],
    [(bar.x + bar.width + 50) / 2, 25, QUADRANTS.topLeft],
    [25, (bar.y + bar.height + 50) / 2, QUADRANTS.topLeft],
    // The other three quadrants, untouched.
    [75, 25, QUADRANTS.topRight],
    [25, 75, QUADRANTS.bottomLeft],
    [75, 75, QUADRANTS.bottomRight],
    [95, 95, QUADRANTS.bottomRight],
  ];
  for (const [x, y, expected] of outside) {
    const actual = image.at(x, y);
    expect(isBlack(actual), `${label}: (${x.toFixed(1)}%, ${y.toFixed(1)}%) outside the bar is not black`).toBe(false);
    expect(isNear(actual, expected), `${label}: (${x.toFixed(1)}%, ${y.toFixed(1)}%) is ${actual}, expected about ${expected}`).toBe(true);
  }
}

let product: RunningProduct;
let browser: Browser;
let photoBytes: Buffer;
beforeAll(async () => {
  [product, browser, photoBytes] = await Promise.all([
    startProduct({ ADMIN_EMAILS: ADMIN.email }),
    launchBrowser(),
    quadrantPhoto(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function signedInMember(who: { email: string; name: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, product.url, who.email, who.name);
  await acceptTerms(page, product.url);
  return { context, page };
}

const photoFile = () => ({ name: 'quadrants.png', mimeType: 'image/png', buffer: photoBytes });

async function openUploadPage(page: Page): Promise<void> {
  await page.goto(`${product.url}/upload`);
  await page.getByRole('heading', { name: 'Snap a Crack', exact: true }).waitFor();
}

/** Picks the photo through the drop zone's file input and waits for its preview to be drawn. */
async function pickPhoto(page: Page): Promise<void> {
  await page.locator('input[type="file"][aria-label="Photo file"]').setInputFiles(photoFile());
  await expect
    .poll(() => preview(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
    .toBe(800);
}

const preview = (page: Page) => page.getByRole('img', { name: 'Preview of quadrants.png' });

/** Drags with the mouse from (5 %, 5 %) to (40 %, 40 %) of the preview: a bar over the top-left quadrant. */
async function drawBarOverTopLeft(page: Page): Promise<void> {
  const box = await preview(page).boundingBox();
  if (!box) throw new Error('The preview has no box');
  const at = (xPercent: number, yPercent: number) =>
    [box.x + (box.width * xPercent) / 100, box.y + (box.height * yPercent) / 100] as const;
  await page.mouse.move(...at(5, 5));
  await page.mouse.down();
  await page.mouse.move(...at(20, 20), { steps: 5 });
  // While dragging, a dashed draft rectangle follows the pointer.
  await page.getByTestId('privacy-bar-draft').waitFor();
  await page.mouse.move(...at(40, 40), { steps: 5 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Privacy bar 1 of 1' }).waitFor();
  await expectText(page, '1/20 bars');
}

function termsBox(page: Page) {
  return page.getByRole('checkbox', { name: /I own this photo or have the right to share it/ });
}

async function userPhotos(context: BrowserContext): Promise<UserPhoto[]> {
  const response = await context.request.get(`${product.url}/api/user/photos`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as UserPhoto[] | { photos: UserPhoto[] };
  return Array.isArray(body) ? body : body.photos;
}

/** A signed-out visitor: plain fetch, no cookies. */
async function visitorGet(path: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(`${product.url}${path}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

describe('uploading a photo with a privacy bar, through approval to the public images', () => {
  let member: { context: BrowserContext; page: Page };
  let uploaded: { id: number; filename: string };

  beforeAll(async () => {
    member = await signedInMember(MEMBER);
  });
  afterAll(async () => {
    await member?.context.close();
  });

  it('the upload form needs a file before it can be sent, and the terms ticked before it uploads', async () => {
    const { page } = member;
    const posts: Request[] = [];
    const onRequest = (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'POST' && (path.startsWith('/api/photos') || path.startsWith('/api/resumable-uploads'))) posts.push(request);
    };
    page.on('request', onRequest);
    try {
      await openUploadPage(page);
      const submit = page.getByRole('button', { name: 'Upload Photo' });
      await submit.waitFor();
      expect(await submit.isDisabled(), 'submit without a file').toBe(true);
      await expectText(page, 'Choose a photo to upload.');

      await pickPhoto(page);
      await expect.poll(() => submit.isEnabled()).toBe(true);
      expect(await termsBox(page).isChecked()).toBe(false);
      await submit.click();
      await expectText(page, 'You must agree to the terms of service');
      expect(await termsBox(page).getAttribute('aria-invalid')).toBe('true');
      expect(new URL(page.url()).pathname).toBe('/upload');

      // Ticking the box clears the message (react-hook-form revalidates on change after a submit).
      await termsBox(page).check();
      await expect
        .poll(() => page.getByText('You must agree to the terms of service').count(), { timeout: 10_000 })
        .toBe(0);
      expect(posts.map((request) => request.url()), 'nothing was uploaded').toEqual([]);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('a member uploads a photo with a privacy bar drawn with the mouse, sees the progress and finds it pending in My Uploads', async () => {
    const { page, context } = member;
    await openUploadPage(page);
    await pickPhoto(page);
    await drawBarOverTopLeft(page);
    await page.getByRole('textbox', { name: /Description/ }).fill(DESCRIPTION);
    await termsBox(page).check();

    await recordProgressBars(page);
    const uploadResponse = page.waitForResponse(
      isPhotoMade,
    );
    const barsResponse = page.waitForResponse(
      (response) => response.request().method() === 'POST' && /^\/api\/photos\/\d+\/privacy-bars$/.test(new URL(response.url()).pathname),
    );
    await page.getByRole('button', { name: 'Upload Photo' }).click();

    const upload = await uploadResponse;
    expect(upload.status(), await upload.text()).toBe(201);
    uploaded = (await upload.json()) as { id: number; filename: string };
    expect(uploaded).toMatchObject({ id: expect.any(Number), filename: expect.any(String) });
    const bars = await barsResponse;
    expect(bars.status(), await bars.text()).toBe(200);
    expect(new URL(bars.url()).pathname).toBe(`/api/photos/${uploaded.id}/privacy-bars`);

    await page.waitForURL(`${product.url}/dashboard`, { timeout: 15_000 });
    // The progress bar was on screen while the photo went up, its value only ever growing. A 12 KB file
    // leaves loopback in one go, so the values seen are typically 0 then 100; 100 is not required, since
    // React may render the last progress event and the answer together.
    const progress = await progressSeen(page);
    expect(progress.length, 'a progress bar was shown').toBeGreaterThan(0);
    expect(progress.every((value, i) => value >= 0 && value <= 100 && (i === 0 || value >= progress[i - 1]!)), `progress values seen: ${progress.join(', ')}`).toBe(true);

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: DESCRIPTION }) });
    await card.waitFor({ timeout: 15_000 });
    await card.getByText('Pending', { exact: true }).waitFor();
    // The owner's thumbnail of the pending photo loads (it is not public yet, but it is theirs).
    const thumbnail = card.getByRole('img', { name: DESCRIPTION });
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);

    const [photo] = (await userPhotos(context)).filter((p) => p.id === uploaded.id);
    expect(photo).toMatchObject({ status: 'pending', description: DESCRIPTION, filename: uploaded.filename });
    // The bar as drawn: from about 5 % to about 40 % of the preview, both ways.
    expect(photo!.privacyBars).toHaveLength(1);
    const [bar] = photo!.privacyBars;
    for (const [value, expected] of [
      [bar!.x, 5],
      [bar!.y, 5],
      [bar!.width, 35],
      [bar!.height, 35],
    ] as const) {
      expect(Math.abs(value - expected), `bar ${JSON.stringify(bar)}`).toBeLessThan(2);
    }
  });

  it('while pending, a signed-out visitor gets 404 for every size of it', async () => {
    expect(uploaded, 'the upload test ran').toBeDefined();
    for (const size of ['display', 'thumb', 'original']) {
      expect((await visitorGet(`/api/uploads/${encodeURIComponent(uploaded.filename)}?size=${size}`)).status, size).toBe(404);
    }
  });

  it('an admin approves it; a visitor then sees the bar burned into the display image and thumbnail but cannot get the original, which the owner gets unredacted', async () => {
    expect(uploaded, 'the upload test ran').toBeDefined();
    const admin = await signedInMember(ADMIN);
    try {
      const review = await admin.context.request.patch(`${product.url}/api/admin/photos/${uploaded.id}/status`, {
        data: { status: 'approved' },
        headers: { Origin: product.url },
      });
      expect(review.status(), await review.text()).toBe(200);
      expect(await review.json()).toMatchObject({ id: uploaded.id, status: 'approved' });
    } finally {
      await admin.context.close();
    }

    const [photo] = (await userPhotos(member.context)).filter((p) => p.id === uploaded.id);
    expect(photo?.status).toBe('approved');
    const bar = photo!.privacyBars[0]!;

    const name = encodeURIComponent(uploaded.filename);
    const display = await visitorGet(`/api/uploads/${name}?size=display`);
    expect(display.status).toBe(200);
    const displayPixels = await decode(display.body);
    expect([displayPixels.width, displayPixels.height]).toEqual([800, 600]);
    expectRedacted(displayPixels, bar, 'display');

    const thumb = await visitorGet(`/api/uploads/${name}?size=thumb`);
    expect(thumb.status).toBe(200);
    const thumbPixels = await decode(thumb.body);
    expect(thumbPixels.width).toBeLessThanOrEqual(480);
    expectRedacted(thumbPixels, bar, 'thumbnail');

    // The versioned URLs the API hands out serve the same redacted images to a visitor.
    expect((await visitorGet(photo!.displayUrl)).body.equals(display.body)).toBe(true);
    expect((await visitorGet(photo!.thumbnailUrl)).body.equals(thumb.body)).toBe(true);

    expect((await visitorGet(`/api/uploads/${name}?size=original`)).status).toBe(404);
    expect((await visitorGet(photo!.originalUrl)).status).toBe(404);

    const original = await member.context.request.get(`${product.url}/api/uploads/${name}?size=original`);
    expect(original.status()).toBe(200);
    const originalPixels = await decode(await original.body());
    expect([originalPixels.width, originalPixels.height]).toEqual([800, 600]);
    for (const [x, y] of pointsInside(bar, 1)) {
      expect(isNear(originalPixels.at(x, y), QUADRANTS.topLeft), `original at (${x}%, ${y}%) is unredacted`).toBe(true);
    }
    expect(isNear(originalPixels.at(75, 75), QUADRANTS.bottomRight)).toBe(true);
  });

  // Screenshots for a person to look at; set E2E_SCREENSHOTS=/some/dir to take them.
  it.runIf(process.env.E2E_SCREENSHOTS)('screenshots of /upload with a bar and /dashboard with a pending photo', async () => {
    const dir = process.env.E2E_SCREENSHOTS!;
    mkdirSync(dir, { recursive: true });
    const { page } = member;
    const widths = [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ];
    const shoot = async (name: string) => {
      for (const viewport of widths) {
        await page.setViewportSize(viewport);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(dir, `${name}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
      }
      await page.setViewportSize(widths[0]!);
    };

    for (const theme of ['light', 'dark'] as const) {
      await openUploadPage(page);
      await setTheme(page, theme);
      await page.getByRole('heading', { name: 'Snap a Crack', exact: true }).waitFor();
      await pickPhoto(page);
      await drawBarOverTopLeft(page);
      await page.getByRole('textbox', { name: /Description/ }).fill('A second crack, for the screenshots');
      await shoot(`upload-${theme}`);
    }

    await termsBox(page).check();
    await page.getByRole('button', { name: 'Upload Photo' }).click();
    await page.waitForURL(`${product.url}/dashboard`, { timeout: 15_000 });
    for (const theme of ['dark', 'light'] as const) {
      await setTheme(page, theme);
      const pending = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'A second crack, for the screenshots' }) });
      await pending.getByText('Pending', { exact: true }).waitFor({ timeout: 15_000 });
      await shoot(`dashboard-${theme}`);
    }
  });
});
