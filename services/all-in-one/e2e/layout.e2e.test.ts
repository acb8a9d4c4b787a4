import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { layoutShiftSoFar, recordLayoutShifts } from './browser.js';
import { seededProduct } from './community.js';

/** A small phone, a common phone, a tablet held upright. */
const WIDTHS = [320, 390, 768] as const;
const THEMES = ['light', 'dark'] as const;

const world = seededProduct();

/** Waits for the page's data and images, and for animations (a skeleton's pulse aside) to end. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || (animation as CSSAnimation).animationName === 'pulse'),
  );
}

/** How far the document is wider than the viewport, with the elements sticking out furthest. */
async function sidewaysScroll(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const overflow = document.documentElement.scrollWidth - viewport;
    const culprits = Array.from(document.body.querySelectorAll<HTMLElement>('*'))
      .filter((element) => element.getBoundingClientRect().right > viewport + 1)
      // Inside a container that scrolls sideways on purpose (the filter row) is fine.
      .filter((element) => !element.parentElement?.closest('[class*="overflow-x-auto"], [class*="overflow-hidden"], [class*="truncate"]'))
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> right=${Math.round(element.getBoundingClientRect().right)}`);
    return { overflow, culprits: culprits.slice(0, 5) };
  });
}

/** Every route's width at every size and theme: one load per route, then the viewport and theme change in place. */
async function checkWidths(context: BrowserContext, paths: string[]): Promise<string[]> {
  const page = await context.newPage();
  const problems: string[] = [];
  for (const path of paths) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${world.url}${path}`);
    await settle(page);
    for (const theme of THEMES) {
      await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        await settle(page);
        const { overflow, culprits } = await sidewaysScroll(page);
        if (overflow > 0) problems.push(`${path} at ${width} px (${theme}): ${overflow} px wider, ${culprits.join(', ')}`);
      }
    }
  }
  await page.close();
  return problems;
}

describe('no page is wider than a phone', () => {
  it('for a visitor, on every route', async () => {
    const context = await world.browser.newContext();
    const problems = await checkWidths(context, [
      '/',
      '/legal',
      '/contact',
      '/terms-acceptance',
      '/google-drive-setup',
      '/upload',
      '/dashboard',
      '/admin',
      '/profile',
      '/settings',
    ]);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('for a member with a 60-character name whose photos sit beside "User <id>" ones', async () => {
    const problems = await checkWidths(world.community.contexts.longName, [
      '/',
      '/upload',
      '/dashboard',
      '/profile',
      '/settings',
      '/notifications',
      '/legal',
      '/contact',
      '/google-drive-setup',
      '/admin',
      '/no-such-page',
    ]);
    expect(problems).toEqual([]);
  });

  it('for an admin on the admin pages', async () => {
    const problems = await checkWidths(world.community.contexts.admin, ['/admin', '/admin/desk', '/admin/users', '/admin/support', '/admin/raters']);
    expect(problems).toEqual([]);
  });

  it('with the photo viewer open on a photo by "User <id>"', async () => {
    const page = await world.community.contexts.voter.newPage();
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`${world.url}/`);
      await page.getByRole('button', { name: /View photo by User / }).first().click();
      await page.getByRole('dialog').waitFor();
      await settle(page);
      const { overflow, culprits } = await sidewaysScroll(page);
      if (overflow > 0) problems.push(`viewer at ${width} px: ${overflow} px wider, ${culprits.join(', ')}`);
      const dialog = await page.getByRole('dialog').boundingBox();
      if (!dialog || dialog.x < 0 || dialog.x + dialog.width > width) problems.push(`viewer at ${width} px: the dialog is not within the screen`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});

describe('targets a finger can hit', () => {
  /**
   * Buttons, links that are controls (not words inside a sentence), stars, switches and checkboxes whose hit area is
   * under 44×44 px at 390 px: each is probed with elementFromPoint 21.5 px out from its centre in four directions, so a
   * hit area widened by a pseudo-element counts and one covered by a neighbour does not. A checkbox or switch counts
   * with its label, which toggles it too.
   */
  async function smallTargets(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const REACH = 21.5;
      const controls = document.querySelectorAll<HTMLElement>('button, a[href], [role="radio"], [role="switch"], [role="checkbox"], [role="tab"], select');
      const small: string[] = [];
      for (const control of Array.from(controls)) {
        const style = getComputedStyle(control);
        if (control.getClientRects().length === 0 || style.visibility === 'hidden' || control.closest('[aria-hidden="true"], .sr-only')) continue;
        // Nothing to hit while it is disabled (it lets taps through).
        if (control.matches(':disabled, [aria-disabled="true"]')) continue;
        // A link inside running text is exempt (WCAG 2.5.8 "inline").
        if (control.tagName === 'A' && style.display === 'inline') continue;
        control.scrollIntoView({ block: 'center', inline: 'center' });
        const box = control.getBoundingClientRect();
        const label = control.id ? document.querySelector<HTMLElement>(`label[for="${CSS.escape(control.id)}"]`) : null;
        const hits = (x: number, y: number) => {
          const element = document.elementFromPoint(x, y);
          return element !== null && (control.contains(element) || (label !== null && label.contains(element)));
        };
        if (label) {
          // The label and the control together make the target.
          const labelBox = label.getBoundingClientRect();
          const height = Math.max(box.bottom, labelBox.bottom) - Math.min(box.top, labelBox.top);
          if (height >= 2 * REACH && box.width + labelBox.width >= 2 * REACH) continue;
        }
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        const reached = [hits(x, y - REACH), hits(x, y + REACH), hits(x - REACH, y), hits(x + REACH, y)];
        if (reached.every(Boolean)) continue;
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim().slice(0, 30) ?? '';
        small.push(`${control.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
      return small;
    });
  }

  it('on every page a member and an admin use, at 390 px', async () => {
    const found: string[] = [];
    for (const [who, paths] of [
      ['longName', ['/', '/upload', '/dashboard', '/profile', '/settings', '/notifications', '/contact', '/legal']],
      ['admin', ['/admin', '/admin/desk', '/admin/users', '/admin/support', '/admin/raters']],
    ] as const) {
      const page = await world.community.contexts[who].newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of paths) {
        await page.goto(`${world.url}${path}`);
        await settle(page);
        for (const target of await smallTargets(page)) found.push(`${path}: ${target}`);
      }
      await page.close();
    }
    expect(found).toEqual([]);
  });

  it('in the photo viewer: the stars, the steps and Close', async () => {
    const page = await world.community.contexts.voter.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${world.url}/`);
    await page.getByRole('button', { name: /View photo by / }).first().click();
    await page.getByRole('radiogroup', { name: 'Your rating' }).waitFor();
    await settle(page);
    expect(await smallTargets(page)).toEqual([]);
    await page.close();
  });
});

describe('pages that do not jump', () => {
  /**
   * The dashboard's layout shift while its two calls answer late, in either order: the sum of the layout-shift
   * entries (as Cumulative Layout Shift counts them) once everything is shown.
   */
  async function dashboardShift(width: number, delays: { stats: number; photos: number }): Promise<number> {
    const page = await world.community.contexts.longName.newPage();
    await page.setViewportSize({ width, height: 900 });
    await recordLayoutShifts(page);
    const later = (ms: number) => (route: import('playwright-core').Route) => setTimeout(() => void route.continue(), ms);
    await page.route('**/api/user/stats', later(delays.stats));
    await page.route('**/api/user/photos', later(delays.photos));
    await page.goto(`${world.url}/dashboard`);
    await page.getByRole('listitem', { name: /^Total Uploads: \d+$/ }).waitFor();
    await page.getByRole('list', { name: 'My uploads' }).waitFor();
    await page.getByRole('img', { name: /^Average rating of \d+ photos? by approval date$/ }).waitFor();
    await settle(page);
    const shift = await layoutShiftSoFar(page);
    await page.close();
    return shift;
  }

  it('keeps the dashboard still while its figures and photos arrive (layout shift ≤ 0.05)', async () => {
    const shifts: Record<string, number> = {};
    for (const width of [1280, 390]) {
      shifts[`${width} px, stats last`] = await dashboardShift(width, { stats: 800, photos: 200 });
      shifts[`${width} px, photos last`] = await dashboardShift(width, { stats: 200, photos: 800 });
    }
    for (const [label, shift] of Object.entries(shifts)) expect(shift, label).toBeLessThanOrEqual(0.05);
  });

  /** Layout shift on `path` at a laptop's size while every data call (not the session's) answers 600 ms late. */
  async function pageShift(context: BrowserContext, path: string): Promise<number> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1350, height: 940 });
    await recordLayoutShifts(page);
    await page.route(/\/api\/(?!auth\/user|uploads\/)/, (route) => setTimeout(() => void route.continue(), 600));
    await page.goto(`${world.url}${path}`);
    await settle(page);
    const shift = await layoutShiftSoFar(page);
    await page.close();
    return shift;
  }

  it('keeps the upload form in place when the upload allowance answers late, on a phone and a laptop', async () => {
    const moved: Record<number, number> = {};
    for (const width of [390, 1280]) {
      const page = await world.community.contexts.longName.newPage();
      await page.setViewportSize({ width, height: 900 });
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      await page.route('**/api/user/upload-allowance', async (route) => {
        await answered;
        await route.continue();
      });
      await page.goto(`${world.url}/upload`);
      const form = page.getByRole('form', { name: 'Upload a photo' });
      await form.waitFor();
      const before = (await form.boundingBox())!.y;
      answer();
      await page.getByRole('region', { name: 'Upload allowance' }).waitFor();
      moved[width] = Math.abs((await form.boundingBox())!.y - before);
      await page.close();
    }
    // A placeholder of one line's height once held the note's place: the form jumped 82 px on a phone, 22 on a laptop.
    expect(moved).toEqual({ 390: 0, 1280: 0 });
  });

  it('keeps the member and admin pages still while their data arrives late (layout shift ≤ 0.05)', async () => {
    const shifts: Record<string, number> = {};
    for (const path of ['/', '/upload', '/profile', '/settings', '/contact']) shifts[path] = await pageShift(world.community.contexts.longName, path);
    for (const path of ['/admin', '/admin/users', '/admin/support']) shifts[path] = await pageShift(world.community.contexts.admin, path);
    for (const [path, shift] of Object.entries(shifts)) expect(shift, path).toBeLessThanOrEqual(0.05);
  });
});
