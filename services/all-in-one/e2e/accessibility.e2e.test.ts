import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fixtureImage, launchBrowser, reviewThroughApi, signIn, signedInMember, uploadThroughApi, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

// axe-core is loaded through the DevTools protocol, which the page's Content Security Policy does not govern.
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Lets running animations (a dialog zooming in, a toast sliding up) end: half-faded text fails contrast. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

async function seriousViolations(page: Page): Promise<string[]> {
  await settle(page);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Every violation found on the pages checked in one test, so one run reports them all. */
class Findings {
  private readonly found: string[] = [];
  async check(page: Page, label: string): Promise<void> {
    for (const violation of await seriousViolations(page)) this.found.push(`${label}: ${violation}`);
  }
  expectNone(): void {
    expect(this.found).toEqual([]);
  }
}

async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('main').first().waitFor();
}

const MEMBER: Person = { email: 'al@example.com', name: 'Al Ly' };
const VOTER: Person = { email: 'vee@example.com', name: 'Vee Voter' };
const ADMIN: Person = { email: 'ad@example.com', name: 'Ad Min' };
const APPROVED = ['A crack across the tiles', 'A crack in the ice'];
const REJECTED = 'Not a crack at all';
const PENDING = 'A crack waiting for review';

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);

  // Data for every page to show: approved photos with votes (gallery, dialog, dashboard plots), a rejected
  // one (its reason on the dashboard), a pending one (the admin's review list) and a visitor's message.
  const admin = await signedInMember(browser, product.url, ADMIN);
  const member = await signedInMember(browser, product.url, MEMBER);
  const voter = await signedInMember(browser, product.url, VOTER);
  const approvedIds: number[] = [];
  for (const [index, description] of APPROVED.entries()) {
    const { id } = await uploadThroughApi(member.context, product.url, description, fixtureImage(index === 0 ? 'photo.png' : 'rotated-gps.jpg'));
    await reviewThroughApi(admin.context, product.url, id, { status: 'approved' });
    approvedIds.push(id);
  }
  const { id: rejected } = await uploadThroughApi(member.context, product.url, REJECTED, fixtureImage('photo.webp'));
  await reviewThroughApi(admin.context, product.url, rejected, { status: 'rejected', rejectionReason: 'This is a shadow.' });
  await uploadThroughApi(member.context, product.url, PENDING, fixtureImage('photo.png'));
  for (const [index, id] of approvedIds.entries()) {
    const vote = await voter.context.request.post(`${product.url}/api/photos/${id}/vote`, {
      data: { rating: 5 - index * 2 },
      headers: { Origin: product.url },
    });
    expect(vote.status(), await vote.text()).toBe(200);
  }
  const contact = await voter.context.request.post(`${product.url}/api/contact`, {
    data: { name: 'Vee Voter', email: VOTER.email, subject: 'Can I change my vote?', message: 'I would like to rate a photo again.' },
    headers: { Origin: product.url },
  });
  expect(contact.status(), await contact.text()).toBeLessThan(300);
  await Promise.all([admin.context.close(), member.context.close(), voter.context.close()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe.each(['light', 'dark'] as const)('accessibility in the %s theme (axe-core: no serious or critical violations)', (theme) => {
  /** A context in `theme`: the system preference and the stored choice agree. */
  async function themed(context: BrowserContext): Promise<void> {
    await context.addInitScript((value) => {
      try {
        localStorage.setItem('theme', value);
      } catch {
        // about:blank has no storage.
      }
    }, theme);
  }

  async function asMember(person: Person): Promise<{ context: BrowserContext; page: Page }> {
    const member = await signedInMember(browser, product.url, person, { colorScheme: theme });
    await themed(member.context);
    return member;
  }

  async function expectTheme(page: Page): Promise<void> {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
  }

  it('signed-out pages', async () => {
    const context = await browser.newContext({ colorScheme: theme });
    await themed(context);
    const page = await context.newPage();
    const findings = new Findings();
    for (const path of [
      '/',
      '/legal',
      '/contact',
      '/upload',
      '/dashboard',
      '/admin',
      '/admin/users',
      '/admin/support',
      '/profile',
      '/settings',
      '/notifications',
      '/terms-acceptance',
      '/google-drive-setup',
      '/no-such-page',
    ]) {
      await visit(page, `${product.url}${path}`);
      if (path === '/') await page.getByRole('list', { name: 'Community photos' }).getByRole('img').first().waitFor();
      await findings.check(page, path);
    }
    await expectTheme(page);
    await context.close();
    findings.expectNone();
  });

  it('the terms screen of a first sign-in', async () => {
    const context = await browser.newContext({ colorScheme: theme });
    await themed(context);
    const page = await context.newPage();
    await signIn(page, product.url, `new-${theme}@example.com`, 'Nia New').catch(() => page.waitForURL(/terms-acceptance/));
    await page.getByRole('button', { name: 'Accept and Continue' }).waitFor();
    const findings = new Findings();
    await findings.check(page, 'terms acceptance');
    // The expandable details of the three documents, opened.
    const closed = page.getByRole('main').getByRole('button', { expanded: false });
    for (let i = 0; i < 3 && (await closed.count()) > 0; i++) await closed.first().click();
    expect(await closed.count()).toBe(0);
    await findings.check(page, 'terms acceptance, details open');
    await context.close();
    findings.expectNone();
  });

  it('a member’s pages', async () => {
    const { context, page } = await asMember(MEMBER);
    const findings = new Findings();

    await visit(page, product.url);
    await page.getByRole('button', { name: /All Snaps/ }).click();
    await page.getByRole('article').first().waitFor({ timeout: 15_000 });
    await expectTheme(page);
    await findings.check(page, 'home with photos');

    await page.getByRole('article').first().getByRole('button', { name: /^View photo by / }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('img').first().waitFor();
    await findings.check(page, 'photo dialog (own photo)');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    await visit(page, `${product.url}/upload`);
    await findings.check(page, '/upload');
    await page.locator('input[type="file"][aria-label="Photo file"]').setInputFiles(fixtureImage('photo.png'));
    await page.getByRole('img', { name: 'Preview of photo.png' }).waitFor();
    await findings.check(page, '/upload with a photo picked');

    await visit(page, `${product.url}/dashboard`);
    await page.getByRole('region', { name: 'Star Distribution' }).waitFor({ timeout: 15_000 });
    await page.getByText('This is a shadow.').waitFor();
    await findings.check(page, '/dashboard with data');
    await page.getByRole('button', { name: `Edit ${APPROVED[0]}` }).click();
    await page.getByRole('dialog').waitFor();
    await findings.check(page, '/dashboard edit dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `Delete ${APPROVED[0]}` }).click();
    await page.getByRole('alertdialog').waitFor();
    await findings.check(page, '/dashboard delete confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

    for (const path of ['/profile', '/settings', '/contact', '/legal', '/google-drive-setup', '/no-such-page', '/admin']) {
      await visit(page, `${product.url}${path}`);
      if (path === '/admin') await page.getByText('Access Denied').first().waitFor();
      await findings.check(page, path);
    }

    await visit(page, `${product.url}/settings`);
    await page.getByRole('switch', { name: 'Email Notifications' }).click();
    await page.getByText('Settings Updated', { exact: true }).waitFor();
    await findings.check(page, '/settings with a toast');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('alertdialog').waitFor();
    await findings.check(page, '/settings delete confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('banner').getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menu').waitFor();
    await findings.check(page, 'account menu');
    await page.keyboard.press('Escape');

    // A phone: the navigation drawer.
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, product.url);
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    await findings.check(page, 'navigation drawer (390 px)');

    await context.close();
    findings.expectNone();
  });

  it('an admin’s pages', async () => {
    const { context, page } = await asMember(ADMIN);
    const findings = new Findings();

    await visit(page, `${product.url}/admin`);
    await page.getByRole('button', { name: `Approve ${PENDING}` }).waitFor({ timeout: 15_000 });
    const filters = page.getByRole('group', { name: 'Photo filters' });
    for (const tab of ['Pending Reviews', 'Approved Today', 'Rejected Today', 'Total Photos']) {
      await filters.getByRole('button', { name: new RegExp(tab) }).click();
      await page.getByRole('heading', { name: tab }).last().waitFor();
      await page.getByRole('status', { name: 'Loading photos' }).waitFor({ state: 'hidden' });
      await findings.check(page, `/admin ${tab}`);
    }
    await filters.getByRole('button', { name: /Pending Reviews/ }).click();
    await page.getByRole('button', { name: `Reject ${PENDING}` }).click();
    await page.getByRole('dialog', { name: 'Reject Photo' }).waitFor();
    await findings.check(page, '/admin reject dialog');
    await page.getByRole('dialog', { name: 'Reject Photo' }).getByRole('button', { name: 'Reject Photo' }).click();
    await page.getByText('Please provide a reason for rejection.').waitFor();
    await findings.check(page, '/admin reject dialog with its error');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /Cleanup Files/ }).click();
    await page.getByRole('menu').waitFor();
    await findings.check(page, '/admin cleanup menu');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Reason Templates' }).click();
    await page.getByRole('dialog', { name: 'Reason Templates' }).getByText('Not a crack').first().waitFor();
    await findings.check(page, '/admin reason templates');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /Reviewer figures/ }).click();
    await page.getByText('Reports by category').first().waitFor();
    await findings.check(page, '/admin reviewer figures');

    await visit(page, `${product.url}/admin/desk`);
    await page.getByRole('article').getByRole('heading', { name: PENDING }).waitFor({ timeout: 15_000 });
    await findings.check(page, '/admin/desk');
    await page.keyboard.press('r');
    await page.getByRole('list', { name: 'Saved reasons' }).waitFor();
    await findings.check(page, '/admin/desk reason panel');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await findings.check(page, '/admin/desk shortcuts');
    await page.keyboard.press('Escape');

    await visit(page, `${product.url}/admin/users`);
    // The email shows under the name below 1024 px and in a column of its own from there: wait for the one shown.
    await page.getByText(MEMBER.email).filter({ visible: true }).first().waitFor({ timeout: 15_000 });
    await findings.check(page, '/admin/users');

    await visit(page, `${product.url}/admin/support`);
    await page.getByText('Can I change my vote?').waitFor({ timeout: 15_000 });
    await findings.check(page, '/admin/support');
    await page.getByRole('group', { name: 'Message filters' }).getByRole('button', { name: /Resolved/ }).click();
    await page.getByText(/No resolved messages/).waitFor();
    await findings.check(page, '/admin/support, an empty filter');

    await visit(page, `${product.url}/admin/raters`);
    await page.getByRole('heading', { name: 'Raters' }).first().waitFor({ timeout: 15_000 });
    await findings.check(page, '/admin/raters');

    await visit(page, `${product.url}/settings`);
    await page.getByRole('link', { name: 'Admin Dashboard' }).waitFor();
    await findings.check(page, '/settings (admin)');
    await visit(page, `${product.url}/profile`);
    await findings.check(page, '/profile (admin)');

    await context.close();
    findings.expectNone();
  });
});
