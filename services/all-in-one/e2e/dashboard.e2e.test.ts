import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  expectText,
  fixtureImage,
  horizontalOverflow,
  isPhotoMade,
  launchBrowser,
  reviewThroughApi,
  setTheme,
  signedInMember,
  uploadThroughApi,
  type Person,
} from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

/**
 * A member's dashboard, end to end: the member uploads three photos through /upload, an admin approves two and
 * rejects one through /admin, two other members rate the approved ones in the gallery's dialog, and the member's
 * /dashboard shows the figures this test works out from what it did.
 */

const OWNER: Person = { email: 'dee@example.com', name: 'Dee Dashboard' };
const RATER_A: Person = { email: 'ria@example.com', name: 'Ria Rater' };
const RATER_B: Person = { email: 'rob@example.com', name: 'Rob Rater' };
const ADMIN: Person = { email: 'ava@example.com', name: 'Ava Admin' };
const REASON = 'Blurry: the crack cannot be seen.';

interface OwnerPhoto {
  description: string;
  file: ReturnType<typeof fixtureImage>;
  decision: 'approved' | 'rejected';
  /** The two raters' stars, in the order A, B (approved photos only). */
  ratings: [number, number] | null;
}

// Ratings picked so that every average is exact at one decimal (no half-way rounding to argue about) and the
// per-star vote counts (5, 4, 3, 2 once each) differ from the photos' rounded averages (5 and 3).
const PHOTOS: OwnerPhoto[] = [
  { description: 'Spider-web crack in the bus shelter glass', file: fixtureImage('photo.png'), decision: 'approved', ratings: [5, 4] },
  { description: 'Hairline crack along the garden wall', file: fixtureImage('rotated-gps.jpg'), decision: 'approved', ratings: [3, 2] },
  { description: 'A crack that turned out to be a shadow', file: fixtureImage('photo.webp'), decision: 'rejected', ratings: null },
];
const REJECTED = PHOTOS.find((p) => p.decision === 'rejected')!;

/** Other members' approved photos, so that the owner's upload rank is not trivially #1 of 1. */
const OTHER_UPLOADS: Array<[Person, number]> = [
  [RATER_A, 1],
  [RATER_B, 3],
];

// ---- What the dashboard must show, worked out from the above (SPEC §3 User stats, §9). ----
const approved = PHOTOS.filter((p) => p.decision === 'approved');
const votes = approved.flatMap((p) => p.ratings!);
const oneDecimal = (value: number) => value.toFixed(1);
const average = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const approvedCounts = [
  { who: OWNER, approved: approved.length },
  ...OTHER_UPLOADS.map(([who, count]) => ({ who, approved: count })),
];
const uploadRank = 1 + approvedCounts.filter((c) => c.approved > approved.length).length;
const EXPECTED = {
  total: PHOTOS.length,
  approved: approved.length,
  pending: 0,
  rejected: PHOTOS.filter((p) => p.decision === 'rejected').length,
  // All uploaded moments ago, so since Monday 00:00 UTC.
  thisWeek: PHOTOS.length,
  totalVotes: votes.length,
  averageRating: oneDecimal(average(votes)),
  // Both approved photos are among the last five approved.
  recentAverage: oneDecimal(average(votes)),
  uploadRank: `#${uploadRank} of ${approvedCounts.length}`,
  // Only the owner has the 3 votes a rating rank needs, so they are first.
  ratingRank: `#1 of ${approvedCounts.length}`,
  approvalRate: Math.round((approved.length / PHOTOS.length) * 100),
};
const byAverage = [...approved].sort((a, b) => average(b.ratings!) - average(a.ratings!));
const HIGHEST = byAverage[0]!;
const LOWEST = byAverage[byAverage.length - 1]!;
/** Votes received per star, 1 to 5. */
const VOTES_PER_STAR = [1, 2, 3, 4, 5].map((stars) => votes.filter((v) => v === stars).length);

let product: RunningProduct;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await product?.stop();
});

/** Picks `photo` on /upload, describes it, ticks the terms and uploads; the page then goes to /dashboard. */
async function uploadThroughPage(page: Page, photo: OwnerPhoto): Promise<void> {
  await page.goto(`${product.url}/upload`);
  await page.getByRole('heading', { name: 'Snap a Crack', exact: true }).waitFor();
  await page.locator('input[type="file"][aria-label="Photo file"]').setInputFiles(photo.file);
  await page.getByRole('img', { name: `Preview of ${photo.file.name}` }).waitFor();
  await page.getByRole('textbox', { name: /Description/ }).fill(photo.description);
  await page.getByRole('checkbox', { name: /I own this photo or have the right to share it/ }).check();
  const answered = page.waitForResponse(
    isPhotoMade,
  );
  await page.getByRole('button', { name: 'Upload Photo' }).click();
  expect((await answered).status()).toBe(201);
  await page.waitForURL(`${product.url}/dashboard`, { timeout: 15_000 });
}

/** Opens `description`'s card in the gallery (All Snaps), reloading while the approval makes its way there. */
async function openInGallery(page: Page, description: string): Promise<Locator> {
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: description, exact: true }) });
  await expect
    .poll(
      async () => {
        await page.goto(product.url);
        await page.getByRole('button', { name: /All Snaps/ }).click();
        return card.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true);
  await card.getByRole('button', { name: /^View photo by / }).click();
  const dialog = page.getByRole('dialog', { name: `Photo by ${OWNER.name}` });
  await dialog.waitFor();
  await dialog.getByText(description).waitFor();
  return dialog;
}

/** A rater picks `stars` in the photo dialog, as a person would, and closes it once the vote is recorded. */
async function rateInDialog(page: Page, description: string, stars: number): Promise<void> {
  const dialog = await openInGallery(page, description);
  const group = dialog.getByRole('radiogroup', { name: 'Your rating' });
  // The stars refuse input (aria-disabled) until the member's previous vote, if any, has been read.
  await expect.poll(() => group.getAttribute('aria-disabled'), { timeout: 10_000 }).toBeNull();
  const voted = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /^\/api\/photos\/\d+\/vote$/.test(new URL(response.url()).pathname),
  );
  await group.getByRole('radio', { name: `${stars} ${stars === 1 ? 'star' : 'stars'}` }).click();
  expect((await voted).status()).toBe(200);
  await dialog.getByText(`You rated this ${stars} ${stars === 1 ? 'star' : 'stars'}.`).waitFor();
  // The dialog's own close button: Escape would first dismiss the Vote Submitted toast, the newest layer.
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** `dt` → `dd` text of every definition list inside `scope`. */
function definitions(scope: Locator): Promise<Record<string, string>> {
  return scope.evaluate((root) => {
    const pairs: Record<string, string> = {};
    for (const term of Array.from(root.querySelectorAll('dt'))) {
      const value = term.nextElementSibling;
      if (value?.tagName === 'DD') pairs[term.textContent!.trim()] = (value as HTMLElement).innerText.trim();
    }
    return pairs;
  });
}

/** The accessible names of the list items in the region named `name`. */
async function listItemNames(page: Page, name: string): Promise<string[]> {
  return page
    .getByRole('region', { name, exact: true })
    .locator('li[aria-label]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')!));
}

/** The dashboard's headline figures as the page shows them (accessible names and definition lists). */
async function dashboardFigures(page: Page) {
  return {
    cards: await listItemNames(page, 'Your numbers'),
    status: await listItemNames(page, 'Status Overview'),
    rankings: await definitions(page.getByRole('region', { name: 'Rankings' })),
    performance: await definitions(page.getByRole('region', { name: 'Performance' })),
  };
}

describe('a member’s dashboard after uploads, a review and votes', () => {
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    admin = await signedInMember(browser, product.url, ADMIN);
    // The raters' own approved photos, set up through the API: they only shape the ranking.
    for (const [person, count] of OTHER_UPLOADS) {
      const { context } = await signedInMember(browser, product.url, person);
      for (let i = 0; i < count; i++) {
        const { id } = await uploadThroughApi(context, product.url, `${person.name}'s crack ${i + 1}`, fixtureImage('photo.png'));
        await reviewThroughApi(admin.context, product.url, id, { status: 'approved' });
      }
      await context.close();
    }
    owner = await signedInMember(browser, product.url, OWNER);
  });
  afterAll(async () => {
    await admin?.context.close();
  });

  it('the member uploads three photos through /upload', { timeout: 90_000 }, async () => {
    for (const photo of PHOTOS) await uploadThroughPage(owner.page, photo);
    const pending = owner.page.getByRole('list', { name: 'My uploads' }).getByRole('listitem');
    await expect.poll(() => pending.filter({ hasText: 'Pending' }).count(), { timeout: 10_000 }).toBe(PHOTOS.length);
  });

  it('an admin approves two and rejects one with a reason through /admin', { timeout: 90_000 }, async () => {
    const { page } = admin;
    await page.goto(`${product.url}/admin`);
    await expectText(page, 'Admin Panel');
    for (const photo of PHOTOS) {
      const button = page.getByRole('button', { name: `${photo.decision === 'approved' ? 'Approve' : 'Reject'} ${photo.description}` });
      await button.waitFor({ timeout: 15_000 });
      await button.click();
      if (photo.decision === 'rejected') {
        const dialog = page.getByRole('dialog', { name: 'Reject Photo' });
        await dialog.getByLabel('Reason for rejection').fill(REASON);
        await dialog.getByRole('button', { name: 'Reject Photo' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      await expect.poll(() => button.count(), { timeout: 10_000 }).toBe(0);
    }
  });

  it('two other members rate both approved photos differently in the gallery’s dialog', { timeout: 120_000 }, async () => {
    for (const [index, person] of [RATER_A, RATER_B].entries()) {
      const rater = await signedInMember(browser, product.url, person);
      try {
        for (const photo of approved) await rateInDialog(rater.page, photo.description, photo.ratings![index]!);
      } finally {
        await rater.context.close();
      }
    }
  });

  it('shows the exact counts, averages with one decimal, the upload rank and the approval rate', async () => {
    const { page } = owner;
    const expected = {
      cards: [
        `Total Uploads: ${EXPECTED.total}`,
        `Approved: ${EXPECTED.approved}`,
        `Average Rating: ${EXPECTED.averageRating}`,
        `Total Votes: ${EXPECTED.totalVotes}`,
      ],
      status: [`Approved: ${EXPECTED.approved}`, `Pending: ${EXPECTED.pending}`, `Rejected: ${EXPECTED.rejected}`],
      rankings: { 'By uploads': EXPECTED.uploadRank, 'By average rating': EXPECTED.ratingRank },
      performance: {
        'Approval rate': `${EXPECTED.approvalRate}%`,
        'Recent average (last 5 approved)': EXPECTED.recentAverage,
        'Uploads this week': String(EXPECTED.thisWeek),
      },
    };
    // The stats are read models fed by events: reload until the last vote has reached them.
    await expect
      .poll(
        async () => {
          await page.goto(`${product.url}/dashboard`);
          await page.getByRole('heading', { name: 'My Dashboard', level: 1 }).waitFor();
          await page.getByRole('region', { name: 'Performance' }).waitFor({ timeout: 10_000 }).catch(() => undefined);
          return dashboardFigures(page).catch(() => null);
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual(expected);

    const numbers = page.getByRole('region', { name: 'Your numbers' });
    await numbers.getByText(`${EXPECTED.thisWeek} this week`, { exact: true }).waitFor();
    const rate = page.getByRole('progressbar', { name: 'Approval rate' });
    expect(await rate.getAttribute('aria-valuenow')).toBe(String(EXPECTED.approvalRate));
    // One decimal everywhere a rating is shown, e.g. "3.5", never "3.50" or "3".
    expect(EXPECTED.averageRating).toMatch(/^\d\.\d$/);
  });

  it('shows the highest and lowest rated photos with their averages and vote counts', async () => {
    const { page } = owner;
    for (const [title, photo] of [
      ['Top Rated Photo', HIGHEST],
      ['Lowest Rated Photo', LOWEST],
    ] as const) {
      const card = page.getByRole('region', { name: title, exact: true });
      await card.getByText(photo.description, { exact: true }).waitFor();
      await card.getByText(oneDecimal(average(photo.ratings!)), { exact: true }).waitFor();
      await card.getByText(`${photo.ratings!.length} votes`, { exact: true }).waitFor();
      const image = card.getByRole('img', { name: photo.description });
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
        .toBe(true);
    }
    expect(HIGHEST).not.toBe(LOWEST);
  });

  it('plots each approved photo’s average over time, with a table of the same figures for screen readers', async () => {
    const { page } = owner;
    const chart = page.getByRole('region', { name: 'Ratings Over Time' });
    const plot = chart.getByRole('img');
    await plot.waitFor();
    expect(await plot.isVisible()).toBe(true);
    expect((await plot.getAttribute('aria-label'))?.length, 'the plot has a text alternative').toBeGreaterThan(0);
    // The text alternative: a table with one row per approved photo, in approval order (the first photo was approved first).
    const rows = await chart
      .getByRole('table')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())));
    expect(rows.map((cells) => cells.slice(1))).toEqual(
      approved.map((p) => [p.description, oneDecimal(average(p.ratings!)), String(p.ratings!.length)]),
    );
  });

  it('plots the star distribution of the votes received, each bar named by its star and vote count', async () => {
    const { page } = owner;
    const chart = page.getByRole('region', { name: 'Star Distribution' });
    await chart.waitFor();
    // Whatever the markup (list items named by aria-label, or table rows), each star's accessible text gives the
    // number of votes received with that many stars: 5, 4, 3 and 2 stars once each here, 1 star never.
    const texts = await chart.evaluate((root) => [
      ...Array.from(root.querySelectorAll('[aria-label]'), (el) => el.getAttribute('aria-label')!),
      ...Array.from(root.querySelectorAll('tr'), (tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ')),
    ]);
    for (const [index, count] of VOTES_PER_STAR.entries()) {
      const stars = index + 1;
      const pattern = new RegExp(`^${stars} stars?\\b\\D*\\b${count} (votes?|ratings?)\\b`);
      expect(texts.some((text) => pattern.test(text)), `${pattern} in ${JSON.stringify(texts)}`).toBe(true);
    }
    expect(VOTES_PER_STAR).toEqual([0, 1, 1, 1, 1]);
  });

  it('shows the rejection reason on the rejected photo in My Uploads', async () => {
    const { page } = owner;
    const uploads = page.getByRole('list', { name: 'My uploads' });
    const rejected = uploads.getByRole('listitem').filter({ has: page.getByRole('heading', { name: REJECTED.description }) });
    await rejected.getByText('Rejected', { exact: true }).waitFor();
    await rejected.getByText(REASON, { exact: true }).waitFor();
    for (const photo of approved) {
      const item = uploads.getByRole('listitem').filter({ has: page.getByRole('heading', { name: photo.description }) });
      await item.getByText('Approved', { exact: true }).waitFor();
      expect(await item.getByText(REASON).count()).toBe(0);
    }
    expect(await uploads.getByRole('listitem').count()).toBe(PHOTOS.length);
  });

  // Screenshots for a person to look at; set E2E_SCREENSHOTS=/some/dir to take them.
  it.runIf(process.env.E2E_SCREENSHOTS)('screenshots of /dashboard with data', async () => {
    const dir = process.env.E2E_SCREENSHOTS!;
    mkdirSync(dir, { recursive: true });
    const { page } = owner;
    const overflows: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.goto(`${product.url}/dashboard`);
      await setTheme(page, theme);
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        await page.getByRole('region', { name: 'Star Distribution' }).waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(dir, `dashboard-data-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        const { overflow, culprits } = await horizontalOverflow(page);
        if (overflow > 0) overflows.push(`at ${viewport.width} px (${theme}): ${overflow} px, ${culprits.join(', ')}`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(overflows, 'no sideways scrolling').toEqual([]);
  });
});
