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
