import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, reviewThroughApi, signedInMember, uploadThroughApi, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';
import { sharp } from './sharp.js';

/** A display name at the limit of what members may choose (50) is shorter than what some providers send: 60. */
export const LONG_NAME = 'Maximiliana Konstantinopoulou-Wolfeschlegelsteinhausenberger';

export const COMMUNITY = {
  admin: { email: 'ada.admin@example.com', name: 'Ada Admin' },
  longName: { email: 'maximiliana@example.com', name: LONG_NAME },
  /** Signs in without a name: their photos read "User <id>". */
  anonymous: { email: 'nameless@example.com', name: '' },
  voter: { email: 'vera.voter@example.com', name: 'Vera Voter' },
} satisfies Record<string, Person>;

export interface SeededPhoto {
  id: number;
  filename: string;
  description: string;
  width: number;
  height: number;
  owner: Person;
}

/** The shapes phones and cameras produce: portrait and landscape 4:3, a square, a wide panorama and a tall screenshot. */
export const SHAPES = [
  { width: 1200, height: 1600, description: 'Portrait: a crack running down a lamp post' },
  { width: 1600, height: 1200, description: 'Landscape: the pavement outside the bakery split in two' },
  { width: 1400, height: 1400, description: 'Square: a cracked tile' },
  { width: 2400, height: 800, description: 'Panorama: the whole sea wall' },
  { width: 900, height: 1950, description: 'Screenshot-tall: a crack up a chimney' },
] as const;

/**
 * A photo of the given size that shows where its edges are: a coloured frame and corner blocks, so a test or a
 * person can see whether the whole frame is on screen.
 */
export async function framedPhoto(width: number, height: number, hue: number): Promise<Buffer> {
  const [r, g, b] = [(hue * 67) % 200 + 40, (hue * 131) % 200 + 40, (hue * 29) % 200 + 40];
  const edge = Math.round(Math.min(width, height) / 12);
  const block = (w: number, h: number, colour: { r: number; g: number; b: number }) =>
    sharp({ create: { width: w, height: h, channels: 3, background: colour } }).jpeg({ quality: 90 }).toBuffer();
  const [corner, stripe] = await Promise.all([block(edge, edge, { r: 250, g: 30, b: 30 }), block(Math.max(1, Math.round(width / 3)), Math.max(1, Math.round(edge / 4)), { r: 20, g: 20, b: 20 })]);
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .composite([
      { input: corner, left: 0, top: 0 },
      { input: corner, left: width - edge, top: 0 },
      { input: corner, left: 0, top: height - edge },
      { input: corner, left: width - edge, top: height - edge },
      { input: stripe, left: Math.round(width / 3), top: Math.round(height / 2) },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

export interface Community {
  photos: SeededPhoto[];
  /** Signed-in browser contexts of everyone, terms accepted; close them with `close()`. */
  contexts: Record<keyof typeof COMMUNITY, BrowserContext>;
  close(): Promise<void>;
}

/**
 * A small community as members make it: the admin (the product must list COMMUNITY.admin's email in ADMIN_EMAILS),
 * a member with a 60-character name and one without a name upload every shape, the admin approves each and a
 * voter rates some of them, leaving others with no votes.
 */
export async function seedCommunity(browser: Browser, baseUrl: string): Promise<Community> {
  const entries = await Promise.all(
    (Object.entries(COMMUNITY) as [keyof typeof COMMUNITY, Person][]).map(async ([key, person]) => [key, (await signedInMember(browser, baseUrl, person)).context] as const),
  );
  const contexts = Object.fromEntries(entries) as Community['contexts'];
  const photos: SeededPhoto[] = [];
  for (const owner of ['longName', 'anonymous'] as const) {
    for (const [index, shape] of SHAPES.entries()) {
      const description = `${shape.description} (${owner === 'longName' ? 'by Maximiliana' : 'unsigned'})`;
      const buffer = await framedPhoto(shape.width, shape.height, index + (owner === 'anonymous' ? 7 : 0));
      const { id, filename } = await uploadThroughApi(contexts[owner], baseUrl, description, { name: `PXL_20251103_14223351${index}.jpg`, mimeType: 'image/jpeg', buffer });
      // Approved as it arrives: a member's upload allowance bounds how many may wait for review at once.
      await reviewThroughApi(contexts.admin, baseUrl, id, { status: 'approved' });
      photos.push({ id, filename, description, width: shape.width, height: shape.height, owner: COMMUNITY[owner] });
    }
  }
  // Votes reach the vote service through events a few milliseconds after approval: retry until it accepts them.
  for (const [index, photo] of photos.entries()) {
    if (index % 3 === 2) continue;
    await voteWhenVotable(contexts.voter, baseUrl, photo.id, (index % 5) + 1);
  }
  return {
    photos,
    contexts,
    async close() {
      await Promise.all(Object.values(contexts).map((context) => context.close()));
    },
  };
}

async function voteWhenVotable(context: BrowserContext, baseUrl: string, photoId: number, rating: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await context.request.post(`${baseUrl}/api/photos/${photoId}/vote`, { data: { rating }, headers: { Origin: baseUrl } });
    if (response.ok()) return;
    if (response.status() !== 404 || Date.now() > deadline) throw new Error(`vote on ${photoId}: ${response.status()} ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * For a test file: the product started (COMMUNITY.admin listed in ADMIN_EMAILS) with the community seeded before the
 * file's tests, and everything stopped after them. Read the fields inside tests, once the file's hooks have run.
 */
export function seededProduct(): { readonly url: string; readonly browser: Browser; readonly community: Community } {
  let product: RunningProduct | undefined;
  let browser: Browser | undefined;
  let community: Community | undefined;
  beforeAll(async () => {
    [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: COMMUNITY.admin.email }), launchBrowser()]);
    community = await seedCommunity(browser, product.url);
  });
  afterAll(async () => {
    await community?.close();
    await browser?.close();
    await product?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The product is not started yet: read it inside a test');
    return value;
  };
  return {
    get url() {
      return started(product).url;
    },
    get browser() {
      return started(browser);
    },
    get community() {
      return started(community);
    },
  };
}
