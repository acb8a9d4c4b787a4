/**
 * `pnpm bench:images [--url URL] [--photos N] [--texture typical|rough]`: what the signed-out gallery's first page of
 * cards costs in image bytes, in Chromium as a visitor sees it, at 1280×800 with device pixel ratio 2 (a laptop) and at
 * 390×844 with ratio 3 (a phone). For each, a fresh browser context (nothing cached) opens `/`, scrolls through the
 * gallery's first page so every lazy card image loads, and prints the bytes transferred for the cards' images, which
 * size each card picked (`?size=` of the image it shows), that image's pixels, and the device pixels its picture takes
 * on screen (contained in the card's frame, a portrait takes less than the card's width).
 *
 * Without --url it starts the product as `pnpm start` runs it (one process, the machine's PostgreSQL and NATS, blobs in
 * a temporary directory, the web app from WEB_DIST or web/dist), uploads N (--photos, default 9) generated 12 MP phone
 * photos of cracked concrete (landscape, every third portrait, q92 JPEG, seeded so every run uploads the same bytes;
 * --texture typical or rough, below), approves them, and measures. With --url it measures a running product (a seeded
 * one, say) as it is.
 *
 * The target (docs/votes-and-gallery.md, The gallery): at most 1.5 MB of card images at 1280 px and ratio 2, and a phone's
 * cards sharp (the medium image, not the thumbnail enlarged 2–3×). A missed target is a figure, not a failure: it exits
 * non-zero only when something breaks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Request } from 'playwright-core';
import { cracksSvg, seededRandom } from '../lib/synthetic-photos.js';
import { signedInCookie, startBenchProduct, type RunningProduct } from './lib.js';

/** sharp belongs to the storage service; the benchmark only uses it to make its photos. */
const sharp = createRequire(new URL('../../services/storage/package.json', import.meta.url))('sharp') as typeof import('sharp');

const { values } = parseArgs({ options: { url: { type: 'string' }, photos: { type: 'string', default: '9' }, texture: { type: 'string', default: 'typical' } } });
const photoCount = Number(values.photos);
if (!Number.isInteger(photoCount) || photoCount < 1 || photoCount > 50) throw new Error(`--photos must be a whole number from 1 to 50, not ${values.photos}`);
/**
 * How much the concrete's texture varies at each scale (coarse to fine, ± of 128 levels). `typical` gives 3.5–3.7 MB
 * JPEGs and 2048 px display images of ~650 kB, what a 9-card page of phone photos weighed (~6 MB) when cards loaded display images; `rough` is the upload
 * benchmark's surface, as detailed at every scale (display images of ~975 kB, a worst case for every derivative).
 */
const TEXTURES = { typical: [0.5, 0.3, 0.15, 0.1], rough: [0.5, 0.35, 0.25, 0.2] } as const;
if (!(values.texture in TEXTURES)) throw new Error(`--texture must be typical or rough, not ${values.texture}`);
const texture = TEXTURES[values.texture as keyof typeof TEXTURES];

const ADMIN = { email: 'bench-images-admin@example.com', name: 'Ada Bench' };
const CARDS = 9;
const LAPTOP_BUDGET_BYTES = 1.5e6;

const PROFILES = [
  { name: 'laptop 1280×800 @2x', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, isMobile: false, budget: LAPTOP_BUDGET_BYTES },
  { name: 'phone 390×844 @3x', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, budget: undefined },
] as const;

const kb = (bytes: number) => `${(bytes / 1e3).toFixed(0)} kB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------
// The photos: weathered concrete with a few cracks and sensor grain, 4000×3000 or 3000×4000, like a phone's.

/** Smooth noise: random values on a coarse grid, scaled up to the full size with a cubic kernel (one channel). */
async function octave(random: () => number, cells: number, width: number, height: number): Promise<Buffer> {
  const w = Math.max(2, Math.round((cells * width) / Math.max(width, height)));
  const h = Math.max(2, Math.round((cells * height) / Math.max(width, height)));
  const coarse = Buffer.alloc(w * h);
  for (let i = 0; i < coarse.length; i += 1) coarse[i] = Math.floor(random() * 256);
  return sharp(coarse, { raw: { width: w, height: h, channels: 1 } }).resize(width, height, { kernel: 'cubic' }).extractChannel(0).raw().toBuffer();
}

/** Photo `index`: every third one portrait. */
async function phonePhoto(index: number): Promise<Buffer> {
  const [width, height] = index % 3 === 1 ? [3000, 4000] : [4000, 3000];
  const random = seededRandom(20261127 + index * 7919);
  const [large, medium, fine, finer] = await Promise.all([
    octave(random, 40, width, height),
    octave(random, 200, width, height),
    octave(random, 1000, width, height),
    octave(random, 2000, width, height),
  ]);
  const tint = [random() * 20 - 10, random() * 20 - 10, random() * 20 - 10];
  const pixels = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p += 1) {
    const light = 135 + texture[0] * (large[p]! - 128) + texture[1] * (medium[p]! - 128) + texture[2] * (fine[p]! - 128) + texture[3] * (finer[p]! - 128);
    const grain = (random() - 0.5) * 10;
    for (let c = 0; c < 3; c += 1) pixels[p * 3 + c] = Math.max(0, Math.min(255, light + grain + tint[c]! + (c === 0 ? 6 : c === 2 ? -8 : 0)));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(cracksSvg(random, width, height)) }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------------
// Through the product

async function api(url: string, cookie: string, method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response;
}

/** Uploads and approves `count` photos as the benchmark's admin, then waits until the public gallery lists them. */
async function fillGallery(product: RunningProduct, count: number): Promise<void> {
  const cookie = await signedInCookie(product.url, ADMIN.email, ADMIN.name);
  await api(product.url, cookie, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true });
  let uploadedBytes = 0;
  for (let index = 0; index < count; index += 1) {
    const jpeg = await phonePhoto(index);
    uploadedBytes += jpeg.byteLength;
    const form = new FormData();
    form.append('description', `Benchmark crack ${index + 1}`);
    form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `PXL_2026112${index}.jpg`);
    const response = await fetch(`${product.url}/api/photos`, { method: 'POST', headers: { cookie }, body: form });
    if (response.status !== 201) throw new Error(`POST /api/photos answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const { id } = (await response.json()) as { id: number };
    await api(product.url, cookie, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' });
  }
  console.log(`Uploaded and approved ${count} generated phone photos, ${values.texture} texture (${mb(uploadedBytes)} of JPEG)`);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const page = (await (await fetch(`${product.url}/api/gallery/all-snaps?page=1&limit=${CARDS}`)).json()) as { total: number };
    if (page.total >= count) return;
    await sleep(250);
  }
  throw new Error('The gallery did not list the approved photos within 30 s');
}

interface Card {
  size: string;
  url: string;
  naturalWidth: number;
  naturalHeight: number;
  /** The picture's width on screen in CSS px: the image box's, or less when contained in it (object-fit: contain). */
  shownWidth: number;
  bytes: number | undefined;
}

/** Opens the signed-out gallery in a fresh context and loads its first page of cards. */
async function measure(browser: Browser, url: string, profile: (typeof PROFILES)[number]) {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
  });
  try {
    const page = await context.newPage();
    const transferred = new Map<string, number>();
    const pending = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('/api/uploads/')) pending.add(request.url());
    });
    const settle = async (request: Request) => {
      if (!request.url().includes('/api/uploads/')) return;
      const sizes = await request.sizes().catch(() => undefined);
      transferred.set(request.url(), (transferred.get(request.url()) ?? 0) + (sizes?.responseBodySize ?? 0));
      pending.delete(request.url());
    };
    page.on('requestfinished', (request) => void settle(request));
    page.on('requestfailed', (request) => pending.delete(request.url()));

    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    const cards = page.locator('article');
    await cards.first().waitFor({ timeout: 30_000 });
    const count = Math.min(CARDS, await cards.count());
    // Lazy images load as they come near the screen: bring each card into view, as a visitor scrolling would.
    for (let index = 0; index < count; index += 1) {
      await cards.nth(index).scrollIntoViewIfNeeded();
      await cards
        .nth(index)
        .locator('img')
        .evaluate((img: HTMLImageElement) => (img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve, { once: true }))), undefined, { timeout: 30_000 })
        .catch(() => undefined);
    }
    for (let quiet = 0; quiet < 5; ) {
      quiet = pending.size === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
    const bytes = new Map(transferred);
    // An image picked from a srcset reports its size in CSS pixels (divided by its density): the pixels it has come
    // from the same bytes decoded again without one (from the memory cache; nothing is counted from here on).
    const shown = await cards.evaluateAll(
      (articles, limit) =>
        Promise.all(
          articles.slice(0, limit).map(async (article) => {
            const img = article.querySelector('img');
            if (!img?.currentSrc) return { url: '', naturalWidth: 0, naturalHeight: 0, shownWidth: 0 };
            const plain = new Image();
            plain.src = img.currentSrc;
            await plain.decode().catch(() => undefined);
            const box = img.getBoundingClientRect();
            const aspect = plain.naturalWidth / Math.max(1, plain.naturalHeight);
            const fit = getComputedStyle(img).objectFit;
            const shownWidth = fit === 'contain' ? Math.min(box.width, box.height * aspect) : fit === 'cover' ? Math.max(box.width, box.height * aspect) : box.width;
            return { url: img.currentSrc, naturalWidth: plain.naturalWidth, naturalHeight: plain.naturalHeight, shownWidth };
          }),
        ),
      count,
    );
    const result: Card[] = shown.map((card) => ({
      ...card,
      size: card.url ? (new URL(card.url).searchParams.get('size') ?? 'display') : 'none',
      bytes: bytes.get(card.url),
    }));
    const allImages = [...bytes.values()].reduce((sum, value) => sum + value, 0);
    return { cards: result, allImages };
  } finally {
    await context.close();
  }
}

function report(profile: (typeof PROFILES)[number], cards: Card[], allImages: number): void {
  const cardBytes = cards.reduce((sum, card) => sum + (card.bytes ?? 0), 0);
  const picked = new Map<string, number>();
  for (const card of cards) picked.set(card.size, (picked.get(card.size) ?? 0) + 1);
  const verdict = profile.budget === undefined ? '' : cardBytes <= profile.budget ? ` (target ≤ ${mb(profile.budget)}: met)` : ` (target ≤ ${mb(profile.budget)}: MISSED)`;
  console.log(`\n${profile.name}: ${cards.length} cards, ${mb(cardBytes)} of card images${verdict}; every image on the page ${mb(allImages)}`);
  console.log(`  sizes picked: ${[...picked].map(([size, n]) => `${n}× ${size}`).join(', ')}`);
  cards.forEach((card, index) => {
    const needed = Math.round(card.shownWidth * profile.deviceScaleFactor);
    const fit = card.naturalWidth >= needed ? `${(card.naturalWidth / Math.max(1, needed)).toFixed(2)}× its pixels` : `enlarged ${(needed / Math.max(1, card.naturalWidth)).toFixed(2)}×`;
    console.log(
      `  card ${index + 1}: size=${card.size.padEnd(7)} ${`${card.naturalWidth}×${card.naturalHeight}`.padEnd(10)} shown ${String(needed).padStart(4)} device px wide (${fit.padEnd(15)}) ${card.bytes === undefined ? 'cached/unknown' : kb(card.bytes)}`,
    );
  });
}

async function main(): Promise<void> {
  let product: RunningProduct | undefined;
  let workDir: string | undefined;
  let browser: Browser | undefined;
  try {
    let url = values.url?.replace(/\/$/, '');
    if (!url) {
      workDir = mkdtempSync(join(tmpdir(), 'bench-images-'));
      product = await startBenchProduct({ DATA_DIR: join(workDir, 'data'), ADMIN_EMAILS: ADMIN.email });
      console.log(`Product started at ${product.url} (web app from ${process.env.WEB_DIST ?? 'web/dist'})`);
      await fillGallery(product, photoCount);
      url = product.url;
    }
    // Debian's Chromium, headless, kept off the network as the end-to-end tests keep it (services/all-in-one/e2e/browser.ts).
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    for (const profile of PROFILES) {
      const { cards, allImages } = await measure(browser, url, profile);
      report(profile, cards, allImages);
    }
  } finally {
    await browser?.close();
    await product?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
