import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { expectText, fixtureImage, horizontalOverflow, launchBrowser, setTheme, signedInMember, waitForScrollToSettle, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

/** /profile, /settings, the theme and /legal in Chromium, checked against the spec's texts and defaults. */

const MEMBER: Person = { email: 'pat@example.com', name: 'Pat Profile' };
const ADMIN: Person = { email: 'sue@example.com', name: 'Sue Settings' };
const NEW_NAME = 'Crack Hunter';
const AVATAR_URL = /^\/uploads\/[0-9a-f-]{36}\.webp$/;

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

/** The account menu's label: the name (and email) the navbar shows for the signed-in user. */
async function navbarName(page: Page): Promise<string> {
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'Open account menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const text = await menu.innerText();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return text;
}

/** The navbar avatar's image address once it has loaded (Radix shows the <img> only then), else null. */
function navbarAvatar(page: Page): Promise<{ src: string; width: number } | null> {
  return page
    .getByRole('banner')
    .getByRole('button', { name: 'Open account menu' })
    .evaluate((button) => {
      const img = button.querySelector('img');
      return img && img.complete && img.naturalWidth > 0 ? { src: img.getAttribute('src')!, width: img.naturalWidth } : null;
    });
}

/** Records the API calls that change something (anything but GET) while `action` runs. */
async function changingCalls(page: Page, action: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (request: Request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/')) {
      seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
    }
  };
  page.on('request', onRequest);
  try {
    await action();
  } finally {
    page.off('request', onRequest);
  }
  return seen;
}

/** The spec's single toast (SPEC §9: at most one at a time): its whole text once it shows `title`. */
async function toastText(page: Page, title: string): Promise<string> {
  // The title exactly: "Settings Updated" must not match the "Privacy Settings Updated" toast still showing before it.
  const toast = page.getByRole('region', { name: /Notifications/ }).getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });
  await toast.first().waitFor({ timeout: 10_000 });
  expect(await page.getByRole('region', { name: /Notifications/ }).getByRole('listitem').count(), 'one toast at a time').toBe(1);
  return toast.first().innerText();
}

describe('/profile', () => {
  let member: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    member = await signedInMember(browser, product.url, MEMBER);
  });
  afterAll(async () => {
    await member?.context.close();
  });

  it('validates the display name with the spec’s messages, saves it trimmed and the navbar follows', async () => {
    const { page } = member;
    await page.goto(`${product.url}/profile`);
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    const input = page.getByLabel('Display Name');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await navbarName(page)).toContain(MEMBER.name);

    const puts = await changingCalls(page, async () => {
      // Blank (spaces only: trimmed, it is empty).
      await input.fill('   ');
      await save.click();
      await expectText(page, 'Display name is required');
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      // 51 characters.
      await input.fill('x'.repeat(51));
      await save.click();
      await expectText(page, 'Display name must be 50 characters or less');
    });
    expect(puts, 'nothing is sent while the name is invalid').toEqual([]);

    const saved = page.waitForRequest((request) => request.method() === 'PUT' && new URL(request.url()).pathname === '/api/profile');
    await input.fill(`  ${NEW_NAME}  `);
    await save.click();
    expect((await saved).postDataJSON()).toEqual({ displayName: NEW_NAME });
    expect(await toastText(page, 'Success')).toContain(`Your display name is now ${NEW_NAME}.`);
    await expect.poll(() => page.getByText('Display name is required').count()).toBe(0);
    expect(await navbarName(page)).toContain(NEW_NAME);
    await expectText(page, `Signed in as ${NEW_NAME}`);

    // The server kept it: after a reload the form and the navbar still have it.
    await page.reload();
    await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toBe(NEW_NAME);
    expect(await navbarName(page)).toContain(NEW_NAME);

    // Truly empty, now that there is a saved name to clear. Playwright clears with select-all then Delete, two steps
    // that a busy machine can come between (CI once found Save still disabled): clear until the field is empty.
    await expect.poll(async () => (await input.fill(''), input.inputValue())).toBe('');
    await save.click();
    await expectText(page, 'Display name is required');
  });

  it('uploads a JPEG, then a PNG avatar; the navbar shows each from /uploads/', async () => {
    const { page } = member;
    await page.goto(`${product.url}/profile`);
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    expect(await navbarAvatar(page), 'no avatar image before the upload (the provider gives none)').toBeNull();

    const sources: string[] = [];
    for (const file of [fixtureImage('rotated-gps.jpg'), fixtureImage('photo.png')]) {
      const answered = page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/profile/avatar',
      );
      await page.getByLabel('Choose avatar image').setInputFiles(file);
      const response = await answered;
      expect(response.status(), await response.text()).toBe(200);
      expect(await toastText(page, 'Success')).toContain('Your avatar has been updated.');
      let avatar: { src: string; width: number } | null = null;
      await expect
        .poll(
          async () => {
            avatar = await navbarAvatar(page);
            return avatar !== null && AVATAR_URL.test(avatar.src) && !sources.includes(avatar.src);
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      const { src, width } = avatar!;
      // Cropped to a 256 px square by storage, and public: a signed-out fetch gets it.
      expect(width).toBe(256);
      const publicFetch = await fetch(`${product.url}${src}`);
      expect(publicFetch.status).toBe(200);
      expect(publicFetch.headers.get('content-type')).toBe('image/webp');
      sources.push(src);
    }

    // After a reload the navbar still shows the last one.
    await page.reload();
    await expect.poll(async () => (await navbarAvatar(page))?.src, { timeout: 10_000 }).toBe(sources[1]);
  });
});

describe('/settings', () => {
  let member: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    member = await signedInMember(browser, product.url, { email: 'sam@example.com', name: 'Sam Settings' }, { colorScheme: 'light' });
  });
  afterAll(async () => {
    await member?.context.close();
  });

  const section = (page: Page, title: string): Locator =>
    page.locator('.rounded-xl').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

  it('shows the account information and every section, without the admin panel for a member', async () => {
    const { page } = member;
    await page.goto(`${product.url}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const headings = await page.getByRole('main').getByRole('heading').allInnerTexts();
    expect(headings.map((h) => h.trim())).toEqual([
      'Settings',
      'Account Information',
      'Notification Preferences',
      'Appearance',
      'Privacy Settings',
      'Security & Account Actions',
    ]);

    // Signed up moments ago: member since today, in the browser's own calendar.
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
    const info = await section(page, 'Account Information').locator('dl').evaluate((dl) =>
      Array.from(dl.querySelectorAll('dt'), (dt) => [dt.textContent!.trim(), (dt.nextElementSibling as HTMLElement).innerText.trim()]),
    );
    expect(info).toEqual([
      ['Display Name', 'Sam Settings'],
      ['Email', 'sam@example.com'],
      ['Account Type', 'User'],
      ['Member Since', today],
    ]);
    expect(await section(page, 'Notification Preferences').innerText()).toMatch(/votes, comments and updates/);
  });

  it('has the notification and privacy toggles with their defaults; each change is confirmed, the notification ones stored', async () => {
    const { page } = member;
    await page.goto(`${product.url}/settings`);
    const switches = {
      email: page.getByRole('switch', { name: 'Email Notifications' }),
      push: page.getByRole('switch', { name: 'Push Notifications' }),
      publicProfile: page.getByRole('switch', { name: 'Public Profile' }),
      showEmail: page.getByRole('switch', { name: 'Show Email Address' }),
    };
    await switches.email.waitFor();
    const states = async () =>
      Object.fromEntries(await Promise.all(Object.entries(switches).map(async ([key, s]) => [key, await s.getAttribute('aria-checked')])));
    // The notification toggles load from the server: enabled once they have.
    await expect.poll(() => switches.email.isEnabled()).toBe(true);
    expect(await states()).toEqual({ email: 'true', push: 'true', publicProfile: 'true', showEmail: 'false' });

    const sent = await changingCalls(page, async () => {
      await switches.email.click();
      expect(await toastText(page, 'Settings Updated')).toContain('Email notifications disabled.');
      await switches.showEmail.click();
      expect(await toastText(page, 'Privacy Settings Updated')).toContain('Your email address is now visible.');
      await switches.publicProfile.click();
      expect(await toastText(page, 'Privacy Settings Updated')).toContain('Your profile is now private.');
      await switches.push.click();
      expect(await toastText(page, 'Settings Updated')).toContain('Push notifications disabled.');
    });
    // The notification preferences are the member's, stored and honoured; the privacy toggles stay page state (SPEC §4).
    expect(sent).toEqual(['PUT /api/user/notification-settings', 'PUT /api/user/notification-settings']);
    expect(await states()).toEqual({ email: 'false', push: 'false', publicProfile: 'false', showEmail: 'true' });

    await page.reload();
    await switches.email.waitFor();
    await expect.poll(() => switches.email.isEnabled()).toBe(true);
    expect(await states()).toEqual({ email: 'false', push: 'false', publicProfile: 'true', showEmail: 'false' });
    // Back on, as the rest of these tests expect.
    await switches.email.click();
    await toastText(page, 'Settings Updated');
    await switches.push.click();
    await expect.poll(async () => (await states()).push).toBe('true');
  });

  it('asks for confirmation before the (not yet available) account deletion', async () => {
    const { page } = member;
    await page.goto(`${product.url}/settings`);
    const open = page.getByRole('button', { name: 'Delete Account' });
    await open.click();
    const dialog = page.getByRole('alertdialog', { name: 'Are you absolutely sure?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByText('Account Deletion').count()).toBe(0);

    await open.click();
    const sent = await changingCalls(page, async () => {
      await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
      expect(await toastText(page, 'Account Deletion')).toContain('Account deletion is not implemented yet. Please contact support.');
    });
    expect(sent, 'account deletion has no call (SPEC §7)').toEqual([]);
  });

  it('shows an admin the Administrator Panel with an Admin Dashboard button to /admin', async () => {
    const admin = await signedInMember(browser, product.url, ADMIN);
    try {
      const { page } = admin;
      await page.goto(`${product.url}/settings`);
      const panel = section(page, 'Administrator Panel');
      await panel.waitFor();
      await section(page, 'Account Information').getByText('Administrator', { exact: true }).waitFor();
      await panel.getByRole('link', { name: 'Admin Dashboard' }).click();
      await page.waitForURL(`${product.url}/admin`);
      await expectText(page, 'Admin Panel');
    } finally {
      await admin.context.close();
    }
  });

  it('signs out from Security & Account Actions', async () => {
    const other = await signedInMember(browser, product.url, { email: 'out@example.com', name: 'Otto Out' });
    try {
      const { page } = other;
      await page.goto(`${product.url}/settings`);
      await section(page, 'Security & Account Actions').getByRole('button', { name: 'Sign Out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto(`${product.url}/settings`);
      // Signed out, /settings is a sign-in-required card.
      await page.getByRole('main').getByRole('button', { name: 'Sign In' }).waitFor({ timeout: 10_000 });
    } finally {
      await other.context.close();
    }
  });
});

describe('dark mode', () => {
  it('switched on in /settings, survives a reload; the navbar toggle switches back, which also survives', async () => {
    const { context, page } = await signedInMember(browser, product.url, { email: 'dora@example.com', name: 'Dora Dark' }, { colorScheme: 'light' });
    try {
      await page.goto(`${product.url}/settings`);
      const toggle = page.getByRole('switch', { name: 'Dark Mode' });
      await toggle.waitFor();
      expect(await isDark(page)).toBe(false);
      expect(await toggle.getAttribute('aria-checked')).toBe('false');

      await toggle.click();
      await expect.poll(() => isDark(page)).toBe(true);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

      await page.reload();
      await toggle.waitFor();
      expect(await isDark(page)).toBe(true);
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      // Dark from the first paint, not only after the app starts: the inline script in index.html applies it.
      await page.goto(`${product.url}/legal`, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.documentElement !== null && document.body !== null);
      expect(await isDark(page)).toBe(true);

      const navbarToggle = page.getByRole('banner').getByRole('button', { name: 'Switch to light mode' });
      await navbarToggle.click();
      await expect.poll(() => isDark(page)).toBe(false);
      await page.reload();
      await page.getByRole('banner').getByRole('button', { name: 'Switch to dark mode' }).waitFor();
      expect(await isDark(page)).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    } finally {
      await context.close();
    }
  });

  it('follows the system preference until the visitor picks one, which then wins over it', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    try {
      await page.goto(`${product.url}/legal`);
      await page.getByRole('heading', { name: 'Legal Information' }).waitFor();
      expect(await isDark(page)).toBe(true);
      await page.getByRole('banner').getByRole('button', { name: 'Switch to light mode' }).click();
      await expect.poll(() => isDark(page)).toBe(false);
      await page.reload();
      await page.getByRole('heading', { name: 'Legal Information' }).waitFor();
      expect(await isDark(page)).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe('/legal', () => {
  const SECTIONS = [
    ['terms', 'Terms of Service'],
    ['privacy', 'Privacy Policy'],
    ['community', 'Community Guidelines'],
  ] as const;

  /** The section's distance from the top of the viewport, in CSS pixels. */
  const topOf = (page: Page, id: string) => page.evaluate((sectionId) => document.getElementById(sectionId)!.getBoundingClientRect().top, id);

  it('has the three sections with their anchors, each last updated July 27, 2025', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${product.url}/legal`);
      for (const [id, title] of SECTIONS) {
        const region = page.getByRole('region', { name: title });
        expect(await region.getAttribute('id')).toBe(id);
        await region.getByText('Last updated: July 27, 2025', { exact: true }).waitFor();
      }
      expect(await page.getByText(/Last updated:/).count()).toBe(SECTIONS.length);
    } finally {
      await context.close();
    }
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`scrolls each section 80 px below the top from the quick navigation and from an address (${viewport.width} px)`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        await page.goto(`${product.url}/legal`);
        const nav = page.getByRole('navigation', { name: 'Legal sections' });
        await nav.waitFor();
        // Backwards, so that every click has to move the page.
        for (const [id, title] of [...SECTIONS].reverse()) {
          await nav.getByRole('button', { name: title }).click();
          await waitForScrollToSettle(page);
          expect(Math.abs((await topOf(page, id)) - 80), `${id} sits 80 px below the top`).toBeLessThanOrEqual(1);
          expect(await page.evaluate(() => document.activeElement?.id)).toBe(id);
        }
        for (const [id] of SECTIONS) {
          await page.goto(`${product.url}/legal#${id}`);
          await page.getByRole('region', { name: SECTIONS.find(([s]) => s === id)![1] }).waitFor();
          await waitForScrollToSettle(page);
          expect(Math.abs((await topOf(page, id)) - 80), `/legal#${id} lands 80 px below the top`).toBeLessThanOrEqual(1);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('goes Back to Home', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${product.url}/legal`);
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await page.waitForURL(`${product.url}/`);
      await page.getByRole('heading', { name: 'Snap, Share, Vote' }).waitFor();
    } finally {
      await context.close();
    }
  });
});

// Screenshots for a person to look at; set E2E_SCREENSHOTS=/some/dir to take them.
it.runIf(process.env.E2E_SCREENSHOTS)('screenshots of /profile and /settings', async () => {
  const dir = process.env.E2E_SCREENSHOTS!;
  mkdirSync(dir, { recursive: true });
  const { context, page } = await signedInMember(browser, product.url, { email: 'shot@example.com', name: 'Shona Shot' });
  const overflows: string[] = [];
  try {
    for (const path of ['/profile', '/settings']) {
      for (const theme of ['light', 'dark'] as const) {
        await page.goto(`${product.url}${path}`);
        await setTheme(page, theme);
        for (const viewport of [
          { width: 1280, height: 800 },
          { width: 390, height: 844 },
        ]) {
          await page.setViewportSize(viewport);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: join(dir, `${path.slice(1)}-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
          const { overflow, culprits } = await horizontalOverflow(page);
          if (overflow > 0) overflows.push(`on ${path} at ${viewport.width} px (${theme}): ${overflow} px, ${culprits.join(', ')}`);
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    }
  } finally {
    await context.close();
  }
  expect(overflows, 'no sideways scrolling').toEqual([]);
});
