import { chromium, type Browser, type Page } from 'playwright-core';
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
