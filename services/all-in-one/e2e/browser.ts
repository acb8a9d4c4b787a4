import { readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium, headless, with the flags that keep it off the network (nothing is downloaded). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs in through the development identity provider's form, as a person would. */
export async function signIn(page: Page, baseUrl: string, email: string, name: string): Promise<void> {
  await page.goto(`${baseUrl}/api/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="name"]').fill(name);
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  await page.waitForURL(`${baseUrl}/`);
}

/** Waits until the page shows `text` somewhere visible. */
export async function expectText(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(async () => page.getByText(text).first().isVisible().catch(() => false), { timeout: 10_000 }).toBe(true);
}

/**
 * Accepts the terms on /terms-acceptance, as a person would, and waits for the redirect home. A first
 * sign-in lands there anyway; calling this later works too.
 */
export async function acceptTerms(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/terms-acceptance`);
  const accept = page.getByRole('button', { name: 'Accept and Continue' });
  await page.getByRole('checkbox').check();
  await accept.click();
  await page.waitForURL(`${baseUrl}/`);
}

/** Selects the theme the way the app stores it (localStorage `theme`), then reloads so it applies. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')), { timeout: 10_000 })
    .toBe(theme === 'dark');
}

/**
 * Starts recording, inside the page, every value a `[role=progressbar]` shows (its aria-valuenow),
 * through a MutationObserver, so even a progress bar that is up for a few milliseconds is seen.
 * `progressSeen` reads the values back.
 */
export async function recordProgressBars(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __progressSeen: number[] }).__progressSeen = seen;
    const note = () => {
      for (const bar of Array.from(document.querySelectorAll('[role="progressbar"]'))) {
        const value = Number(bar.getAttribute('aria-valuenow'));
        if (seen.at(-1) !== value) seen.push(value);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
    note();
  });
}

export function progressSeen(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __progressSeen?: number[] }).__progressSeen ?? []);
}

export interface Person {
  email: string;
  name: string;
}

/** The storage service's real test images (services/storage/test/fixtures), as bytes. */
export function fixtureImage(name: 'photo.png' | 'photo.webp' | 'rotated-gps.jpg'): { name: string; mimeType: string; buffer: Buffer } {
  const mimeType = name.endsWith('.png') ? 'image/png' : name.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
  return { name, mimeType, buffer: readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url)) };
}

/**
 * A browser context signed in as `person` with the terms accepted (a first sign-in lands on the terms screen,
 * a later one on the gallery: both work).
 */
export async function signedInMember(
  browser: Browser,
  baseUrl: string,
  person: Person,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  try {
    await signIn(page, baseUrl, person.email, person.name).catch(async () => page.waitForURL(/terms-acceptance/));
    await acceptTerms(page, baseUrl);
  } catch (error) {
    // Where the browser was stuck, and what it showed, say more than a timeout does.
    const shown = await page.locator('body').innerText({ timeout: 2_000 }).catch(() => '(nothing)');
    throw new Error(`${person.email} could not sign in: at ${page.url()}, showing ${JSON.stringify(shown.slice(0, 500))}`, { cause: error });
  }
  return { context, page };
}

/** Uploads a photo through the API (multipart, as the upload page sends it) and answers its id and filename. */
export async function uploadThroughApi(
  context: BrowserContext,
  baseUrl: string,
  description: string,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<{ id: number; filename: string }> {
  const response = await context.request.post(`${baseUrl}/api/photos`, {
    multipart: { description, photo: file },
    headers: { Origin: baseUrl },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; filename: string };
}

/** Lets every member keep up to 1000 photos waiting for review, as an admin sets it (`context` must be an admin's). */
export async function liftUploadAllowance(context: BrowserContext, baseUrl: string): Promise<void> {
  const response = await context.request.put(`${baseUrl}/api/admin/upload-allowance`, {
    data: { pendingLimit: 1000, trustedAfter: 1000, trustedPendingLimit: 1000 },
    headers: { Origin: baseUrl },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** An admin's review decision through the API (`context` must be an admin's). */
export async function reviewThroughApi(
  context: BrowserContext,
  baseUrl: string,
  photoId: number,
  decision: { status: 'approved' } | { status: 'rejected'; rejectionReason: string },
): Promise<void> {
  const response = await context.request.patch(`${baseUrl}/api/admin/photos/${photoId}/status`, {
    data: decision,
    headers: { Origin: baseUrl },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Waits until the page has stopped scrolling (two animation frames in a row at the same position). */
export async function waitForScrollToSettle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = -1;
        let still = 0;
        const check = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 5) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/**
 * What sticks out of the viewport sideways: the page's horizontal overflow in px and the outermost elements past
 * the right edge (none when it fits).
 */
export function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      const parent = element.parentElement?.getBoundingClientRect();
      if (box.right > width + 1 && (!parent || parent.right <= width + 1)) {
        culprits.push(`<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> right=${Math.round(box.right)}`);
      }
    }
    return { overflow: document.documentElement.scrollWidth - width, culprits: culprits.slice(0, 10) };
  });
}

/**
 * From the next navigation on, records the page's layout shifts as Cumulative Layout Shift counts them (those not
 * right after input); `layoutShiftSoFar` sums them.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __layoutShifts: number[] }).__layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export function layoutShiftSoFar(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __layoutShifts: number[] }).__layoutShifts.reduce((sum, value) => sum + value, 0));
}

/**
 * The answer that makes the upload page's photo: the page sends the bytes by the resumable protocol, then asks for the
 * photo with `POST /api/resumable-uploads/{id}/photo` (201 with `{ id, filename }`, as `POST /api/photos` answers).
 */
export function isPhotoMade(response: Response): boolean {
  return response.request().method() === 'POST' && /^\/api\/resumable-uploads\/[0-9a-f]{32}\/photo$/.test(new URL(response.url()).pathname);
}
