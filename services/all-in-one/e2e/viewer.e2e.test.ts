import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectText, signedInMember } from './browser.js';
import { seededProduct } from './community.js';

const world = seededProduct();

const viewer = (page: Page) => page.getByRole('dialog');

/** Waits for the dialog's zoom-in (and any other animation) to end, so what is measured is where it stays. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || (animation as CSSAnimation).animationName === 'pulse'));
}
const position = (page: Page) => viewer(page).getByText(/^Photo \d+ of \d+$/).innerText();

describe('the photo viewer in Chromium', () => {
  it('opens from the photo itself and moves with the arrow keys and the buttons', async () => {
    const page = await world.community.contexts.voter.newPage();
    await page.goto(`${world.url}/`);
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    // A click on the picture, not the View button.
    await cards.nth(1).locator('img').click();
    await viewer(page).waitFor();
    expect(await position(page)).toBe('Photo 2 of 9');
    await page.keyboard.press('ArrowRight');
    expect(await position(page)).toBe('Photo 3 of 9');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await position(page)).toBe('Photo 1 of 9');
    await viewer(page).getByRole('button', { name: 'Next photo' }).click();
    expect(await position(page)).toBe('Photo 2 of 9');
    await page.keyboard.press('Escape');
    await viewer(page).waitFor({ state: 'hidden' });
    // Focus is back on the card of the photo last shown.
    const shownCard = await cards.nth(1).getByRole('button', { name: /^View photo by/ }).getAttribute('data-photo-view');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-photo-view'))).toBe(shownCard);
    await page.close();
  });

  it('moves with a swipe on a touch screen', async () => {
    const context = await world.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${world.url}/`);
    await page.getByRole('article').first().locator('img').click();
    await viewer(page).waitFor();
    await settled(page);
    expect(await position(page)).toBe('Photo 1 of 9');
    const frame = (await viewer(page).locator('[data-protected-image]').boundingBox())!;
    const swipe = async (fromX: number, toX: number) => {
      const y = frame.y + frame.height / 2;
      const client = await context.newCDPSession(page);
      await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
      for (let step = 1; step <= 5; step += 1) {
        await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: fromX + ((toX - fromX) * step) / 5, y }] });
      }
      await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await client.detach();
    };
    await swipe(frame.x + frame.width * 0.8, frame.x + frame.width * 0.2);
    await expect.poll(() => position(page)).toBe('Photo 2 of 9');
    await swipe(frame.x + frame.width * 0.2, frame.x + frame.width * 0.8);
    await expect.poll(() => position(page)).toBe('Photo 1 of 9');
    await context.close();
  });

  // Before anyone rates the photos the voter skipped.
  it('shows "No ratings yet" on a photo without votes, never 0.0', async () => {
    const page = await world.browser.newPage();
    await page.goto(`${world.url}/`);
    await page.getByRole('button', { name: /All Snaps/ }).click();
    const unrated = page.getByRole('article').filter({ hasText: 'No ratings yet' });
    await expect.poll(() => unrated.count()).toBeGreaterThan(0);
    expect(await page.getByRole('article').filter({ hasText: /0\.0/ }).count()).toBe(0);
    await unrated.first().locator('img').click();
    await viewer(page).getByText('No ratings yet').waitFor();
    await page.close();
  });

  it('walks Need your Vote to the next unrated photo after each vote; the stars never move and Escape closes it over the toast', async () => {
    // A member who has rated nothing yet, so every photo needs their vote.
    const { context, page } = await signedInMember(world.browser, world.url, { email: 'nina.new@example.com', name: 'Nina New' });
    await page.goto(`${world.url}/`);
    await page.getByRole('button', { name: /Need your Vote/ }).click();
    await page.getByRole('heading', { name: 'Need your Vote' }).waitFor();
    // By tag: while the viewer is open the page behind it is hidden from the accessibility tree.
    const grid = page.locator('article');
    await expect.poll(() => grid.count()).toBe(9);
    const gridOrder = async () => grid.evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-labelledby')));
    const before = await gridOrder();
    await grid.first().locator('img').click();
    const stars = viewer(page).getByRole('radiogroup', { name: 'Your rating' });
    await stars.waitFor();
    await settled(page);
    // Every seeded description ends with who took it.
    const title = async () => viewer(page).locator('p').filter({ hasText: /\((by Maximiliana|unsigned)\)$/ }).first().innerText();
    const seen = [await title()];
    const starBox = async () => stars.getByRole('radio', { name: '1 star' }).boundingBox();
    const firstBox = await starBox();

    for (const digit of ['4', '2', '5']) {
      await expect.poll(async () => stars.getAttribute('aria-disabled')).toBeNull();
      await page.keyboard.press(digit);
      await expectText(page, 'Vote Submitted');
      // It goes on by itself to a photo not seen yet.
      await expect.poll(title, { timeout: 5_000 }).not.toBe(seen.at(-1));
      seen.push(await title());
      await settled(page);
      expect(await starBox()).toEqual(firstBox);
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Behind the viewer the grid kept its order while the votes came in.
    expect(await gridOrder()).toEqual(before);

    // Escape closes the viewer, not the toast that is showing.
    await page.keyboard.press('Escape');
    await viewer(page).waitFor({ state: 'hidden' });
    await expectText(page, 'Vote Submitted');
    // Once closed, the rated photos have left the list (10 photos, 3 rated).
    await expect.poll(() => grid.count()).toBe(7);
    await context.close();
  });

  it('says when the gallery cannot be loaded, and Retry loads it', async () => {
    const page = await world.browser.newPage();
    let failing = true;
    await page.route('**/api/gallery/top-rated**', (route) => (failing ? route.fulfill({ status: 503, body: 'unavailable' }) : route.continue()));
    await page.goto(`${world.url}/`);
    const alert = page.getByRole('alert').filter({ hasText: 'The photos could not be loaded' });
    await alert.waitFor();
    expect(await page.getByText('Oh snap! No cracks found!').count()).toBe(0);
    failing = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('article').first().waitFor();
    await page.close();
  });
});

describe('card images in Chromium', () => {
  /** Which image (`?size=`) each card of a signed-out visitor's first gallery page shows. */
  async function cardImages(viewport: { width: number; height: number }, deviceScaleFactor: number) {
    const context = await world.browser.newContext({ viewport, deviceScaleFactor });
    const page = await context.newPage();
    await page.goto(`${world.url}/`);
    const cards = page.locator('#gallery article img');
    await expect.poll(() => cards.count()).toBe(9);
    // Cards load lazily: bring each one to the screen and wait until its image is in.
    for (let index = 0; index < 9; index += 1) {
      await cards.nth(index).scrollIntoViewIfNeeded();
      await expect.poll(() => cards.nth(index).evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    }
    const chosen = await cards.evaluateAll((images) => images.map((image) => new URL((image as HTMLImageElement).currentSrc).searchParams.get('size')));
    await context.close();
    return { chosen };
  }

  it('loads the 960 px medium image, never the display image, for every card at 1280 px and device pixel ratio 2', async () => {
    const { chosen } = await cardImages({ width: 1280, height: 800 }, 2);
    expect(chosen).toEqual(Array(9).fill('medium'));
  });

  it('gives a phone at 3× the medium image (not an enlarged thumbnail), and a 1× laptop the thumbnail', async () => {
    expect((await cardImages({ width: 390, height: 844 }, 3)).chosen).toEqual(Array(9).fill('medium'));
    expect((await cardImages({ width: 1280, height: 800 }, 1)).chosen).toEqual(Array(9).fill('thumb'));
  });
});
