import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fixtureImage, horizontalOverflow, launchBrowser, reviewThroughApi, setTheme, signedInMember, uploadThroughApi, type Person } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

const ADMIN: Person = { email: 'ada.admin@example.com', name: 'Ada Admin' };
const OWNER: Person = { email: 'olga.owner@example.com', name: 'Olga Owner' };
const REPORTERS: Person[] = [
  { email: 'rita.one@example.com', name: 'Rita One' },
  { email: 'remy.two@example.com', name: 'Remy Two' },
  { email: 'rosa.three@example.com', name: 'Rosa Three' },
];
const DESCRIPTION = 'A crack across the bus stop glass';
/** The second of the reason templates every installation starts with (picked at the desk with the 2 key). */
const REASON = 'Faces, number plates or other personal data are visible. Please cover them with privacy bars and resubmit.';

let product: RunningProduct;
let browser: Browser;
let admin: { context: BrowserContext; page: Page };
let owner: { context: BrowserContext; page: Page };
let photoId: number;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
  [admin, owner] = [await signedInMember(browser, product.url, ADMIN), await signedInMember(browser, product.url, OWNER)];
  ({ id: photoId } = await uploadThroughApi(owner.context, product.url, DESCRIPTION, fixtureImage('rotated-gps.jpg')));
  await reviewThroughApi(admin.context, product.url, photoId, { status: 'approved' });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Opens the photo from the gallery, reports it from its viewer, and answers the toast's text. */
async function reportFromViewer(page: Page, category: string, note?: string): Promise<string> {
  await page.goto(`${product.url}/`);
  await page.getByRole('article').filter({ hasText: DESCRIPTION }).locator('img').click();
  const viewer = page.getByRole('dialog');
  await viewer.getByRole('button', { name: 'Report' }).click();
  const form = page.getByRole('dialog', { name: 'Report Photo' });
  await form.getByRole('radio', { name: category }).check();
  if (note) await form.getByLabel('Details (optional)').fill(note);
  await form.getByRole('button', { name: 'Send Report' }).click();
  await page.getByText('Report Sent', { exact: true }).waitFor();
  return page.getByText(/^Thank you\./).innerText();
}

describe('members report a photo, an admin removes it, everyone sees the outcome', () => {
  it('three reports hide the photo; the admin removes it from the review desk by keyboard; the owner fixes the bars and resubmits; the admin approves it again at the desk', { timeout: 240_000 }, async () => {
    const reporters = [];
    for (const person of REPORTERS) reporters.push(await signedInMember(browser, product.url, person));

    // The owner's own viewer offers no Report.
    await owner.page.goto(`${product.url}/`);
    await owner.page.getByRole('article').filter({ hasText: DESCRIPTION }).locator('img').click();
    await owner.page.getByRole('dialog').getByText(DESCRIPTION).waitFor();
    expect(await owner.page.getByRole('dialog').getByRole('button', { name: 'Report' }).count()).toBe(0);

    expect(await reportFromViewer(reporters[0]!.page, 'Faces or personal data visible', 'Someone stands behind the glass')).toMatch(/An admin will look/);
    expect(await reportFromViewer(reporters[1]!.page, 'Faces or personal data visible')).toMatch(/An admin will look/);
    expect(await reportFromViewer(reporters[2]!.page, 'Offensive')).toMatch(/hidden from the gallery/);

    // Gone from the gallery for everyone.
    await reporters[0]!.page.goto(`${product.url}/`);
    await reporters[0]!.page.getByRole('article').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    expect(await reporters[0]!.page.getByRole('article').filter({ hasText: DESCRIPTION }).count()).toBe(0);

    // The owner: under review, with why, and no reporter's name anywhere on the dashboard.
    await owner.page.goto(`${product.url}/dashboard`);
    const ownCard = owner.page.getByRole('listitem', { name: DESCRIPTION });
    await ownCard.getByText('Members reported this photo.', { exact: false }).waitFor();
    const dashboardText = await owner.page.locator('main').innerText();
    for (const person of REPORTERS) expect(dashboardText).not.toContain(person.name);

    // The admin: the Reported Photos tile counts it; then the desk hands it out with its reports grouped, and the admin
    // removes it by keyboard with a reason template, takes that back with U, and decides again.
    const { page } = admin;
    await page.goto(`${product.url}/admin`);
    await page.getByTestId('stat-reports').filter({ hasText: '1' }).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Review next' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${product.url}/admin/desk`);
    const item = page.getByRole('article');
    await item.getByRole('heading', { name: DESCRIPTION }).waitFor();
    await item.getByText('Reported', { exact: true }).waitFor();
    await item.getByText('“Someone stands behind the glass”').waitFor();
    const removeByKeyboard = async () => {
      await page.keyboard.press('r');
      await page.getByRole('list', { name: 'Saved reasons' }).waitFor();
      await page.keyboard.press('2');
      expect(await page.getByLabel('Reason for rejection').inputValue()).toBe(REASON);
      await page.keyboard.press('Enter');
      await page.getByTestId('desk-undo-bar').waitFor();
    };
    await removeByKeyboard();
    await page.getByRole('heading', { name: 'Nothing waiting for review' }).waitFor();
    // Undo within the 10 s: nothing was sent, and the photo is back on the desk (still claimed by this admin).
    await page.keyboard.press('u');
    await item.getByRole('heading', { name: DESCRIPTION }).waitFor();
    expect(await page.getByTestId('desk-undo-bar').count()).toBe(0);
    await removeByKeyboard();
    // Sent once its 10 s are over: the reports close as removed.
    await page.getByTestId('desk-undo-bar').waitFor({ state: 'detached', timeout: 20_000 });
    await expect
      .poll(async () => ((await (await page.request.get(`${product.url}/api/admin/reports`)).json()) as { total: number }).total, { timeout: 15_000 })
      .toBe(0);

    // The owner reads the reason; each reporter sees "Removed", and only their own report.
    await owner.page.goto(`${product.url}/dashboard`);
    await ownCard.getByText(REASON).waitFor();
    for (const [index, { page: reporterPage }] of reporters.entries()) {
      await reporterPage.goto(`${product.url}/dashboard`);
      const rows = reporterPage.getByRole('list', { name: 'Your reports' }).getByRole('listitem');
      await rows.first().getByText('Removed').waitFor();
      expect(await rows.count(), REPORTERS[index]!.name).toBe(1);
    }
    expect(await horizontalOverflow(reporters[0]!.page)).toMatchObject({ overflow: 0 });

    // The owner fixes the bars (with the editor's keyboard way, Add bar, a bar in the middle), and resubmits with a note.
    await ownCard.getByText(/resubmit it once, until/).waitFor();
    await ownCard.getByRole('button', { name: `Edit ${DESCRIPTION}` }).click();
    const edit = owner.page.getByRole('dialog', { name: 'Edit Photo' });
    await edit.getByRole('group', { name: `Privacy bars for ${DESCRIPTION}` }).locator('img').evaluate((img: HTMLImageElement) => img.decode());
    await edit.getByRole('button', { name: 'Add bar' }).click();
    await edit.getByRole('button', { name: 'Privacy bar 1 of 1' }).waitFor();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'detached', timeout: 30_000 });
    await ownCard.getByRole('button', { name: `Fix and resubmit ${DESCRIPTION}` }).click();
    const resubmit = owner.page.getByRole('dialog', { name: 'Resubmit Photo' });
    await resubmit.getByText(REASON).waitFor();
    await resubmit.getByLabel('What did you change? (optional)').fill('Covered the face with a privacy bar');
    await resubmit.getByRole('button', { name: 'Resubmit Photo' }).click();
    await owner.page.getByText('Photo Resubmitted', { exact: true }).waitFor();
    await ownCard.getByText(/an admin will review it again/).waitFor();

    // At the desk the resubmission comes with the old reason, the note, the bars before and now; A approves it.
    await page.goto(`${product.url}/admin/desk`);
    await item.getByText('Resubmission', { exact: true }).waitFor({ timeout: 15_000 });
    const details = item.getByRole('region', { name: 'Resubmission' });
    await details.getByText(`Rejected because: “${REASON}”`).waitFor();
    await details.getByText('The uploader says: “Covered the face with a privacy bar”').waitFor();
    await details.getByText('0 bars before → 1 bar now').waitFor();
    expect(await horizontalOverflow(page)).toMatchObject({ overflow: 0 });
    await page.keyboard.press('a');
    await page.getByTestId('desk-undo-bar').waitFor();
    // The decision is sent once its Undo window closes; then the photo is back in the gallery for everyone.
    await expect
      .poll(async () => {
        const response = await page.request.get(`${product.url}/api/gallery/new-this-week?page=1&limit=50`);
        return ((await response.json()) as { photos: { id: number }[] }).photos.some((p) => p.id === photoId);
      }, { timeout: 30_000 })
      .toBe(true);
    await owner.page.goto(`${product.url}/dashboard`);
    await ownCard.getByText('Approved', { exact: true }).waitFor();
    await Promise.all(reporters.map(({ context }) => context.close()));
  });

  // Screenshots for a person to look at; set E2E_SCREENSHOTS=/some/dir to take them.
  it.runIf(process.env.E2E_SCREENSHOTS)('screenshots of reporting and the reported photos', { timeout: 180_000 }, async () => {
    const dir = process.env.E2E_SCREENSHOTS!;
    mkdirSync(dir, { recursive: true });
    const { id } = await uploadThroughApi(owner.context, product.url, 'A second crack, by the fountain', fixtureImage('photo.webp'));
    await reviewThroughApi(admin.context, product.url, id, { status: 'approved' });
    const { id: rejectedId } = await uploadThroughApi(owner.context, product.url, 'A third crack, blurred', fixtureImage('photo.png'));
    await reviewThroughApi(admin.context, product.url, rejectedId, { status: 'rejected', rejectionReason: 'The crack is out of focus.' });
    const reporter = await signedInMember(browser, product.url, REPORTERS[0]!);
    await reporter.page.request.post(`${product.url}/api/photos/${id}/reports`, { data: { category: 'spam', note: 'Posted twice' }, headers: { Origin: product.url } });
    // Two photos waiting for the desk and the pending list.
    await uploadThroughApi(owner.context, product.url, 'A long crack along the harbour wall, photographed at low tide', fixtureImage('rotated-gps.jpg'));
    await uploadThroughApi(owner.context, product.url, 'A crack in the step', fixtureImage('photo.webp'));
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        for (const page of [reporter.page, admin.page]) {
          await page.setViewportSize(viewport);
          await page.goto(`${product.url}/`);
          await setTheme(page, theme);
        }
        const { page } = reporter;
        await page.goto(`${product.url}/`);
        await page.getByRole('article').filter({ hasText: DESCRIPTION.slice(0, 5) }).first().waitFor({ timeout: 5000 }).catch(() => undefined);
        await page.getByRole('article').first().locator('img').click();
        await page.getByRole('dialog').getByRole('button', { name: 'Report' }).click();
        await page.getByRole('dialog', { name: 'Report Photo' }).getByRole('radio', { name: 'Not a crack' }).check();
        await page.screenshot({ path: join(dir, `report-dialog-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await page.goto(`${product.url}/dashboard`);
        await page.getByRole('list', { name: 'Your reports' }).waitFor();
        await page.screenshot({ path: join(dir, `dashboard-reports-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        await admin.page.goto(`${product.url}/admin`);
        await admin.page.getByRole('button', { name: /Reported Photos/ }).click();
        await admin.page.getByRole('list', { name: 'Reported photos' }).waitFor();
        await admin.page.screenshot({ path: join(dir, `admin-reports-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        await admin.page.getByRole('button', { name: 'Upload Allowance' }).click();
        await admin.page.getByRole('dialog', { name: 'Upload Allowance' }).getByLabel('Photos waiting at once').first().waitFor();
        await admin.page.screenshot({ path: join(dir, `admin-allowance-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await admin.page.keyboard.press('Escape');
        await admin.page.getByRole('button', { name: 'Reason Templates' }).click();
        await admin.page.getByRole('dialog', { name: 'Reason Templates' }).getByText('Not a crack').first().waitFor();
        await admin.page.screenshot({ path: join(dir, `admin-templates-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await admin.page.keyboard.press('Escape');
        await admin.page.goto(`${product.url}/admin`);
        await admin.page.getByRole('checkbox', { name: /^Select photo/ }).first().check();
        await admin.page.getByRole('button', { name: /^Approve selected/ }).scrollIntoViewIfNeeded();
        await admin.page.screenshot({ path: join(dir, `admin-bulk-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await admin.page.getByRole('button', { name: /Reviewer figures/ }).click();
        await admin.page.getByText('Reports by category').first().waitFor();
        await admin.page.getByRole('button', { name: /Reviewer figures/ }).scrollIntoViewIfNeeded();
        await admin.page.screenshot({ path: join(dir, `admin-figures-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        await admin.page.goto(`${product.url}/admin/desk`);
        await admin.page.getByRole('article').getByRole('heading').first().waitFor();
        await admin.page.locator('article img').first().evaluate((img: HTMLImageElement) => img.decode());
        await admin.page.screenshot({ path: join(dir, `desk-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        await admin.page.keyboard.press('r');
        await admin.page.getByRole('list', { name: 'Saved reasons' }).waitFor();
        await admin.page.screenshot({ path: join(dir, `desk-reason-${theme}-${viewport.width}.png`), fullPage: true, animations: 'disabled' });
        await admin.page.keyboard.press('Escape');
        await admin.page.goto(`${product.url}/admin`);

        // The owner: a rejected photo they may fix and resubmit, the resubmit dialog, and the upload page's allowance.
        await owner.page.setViewportSize(viewport);
        await owner.page.goto(`${product.url}/dashboard`);
        await setTheme(owner.page, theme);
        await owner.page.getByRole('button', { name: /^Fix and resubmit/ }).first().waitFor();
        await owner.page.getByRole('region', { name: 'Upload allowance' }).scrollIntoViewIfNeeded();
        await owner.page.screenshot({ path: join(dir, `dashboard-resubmit-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await owner.page.getByRole('button', { name: /^Fix and resubmit/ }).first().click();
        await owner.page.getByRole('dialog', { name: 'Resubmit Photo' }).waitFor();
        await owner.page.screenshot({ path: join(dir, `resubmit-dialog-${theme}-${viewport.width}.png`), animations: 'disabled' });
        await owner.page.keyboard.press('Escape');
        await owner.page.goto(`${product.url}/upload`);
        await owner.page.getByRole('region', { name: 'Upload allowance' }).waitFor();
        await owner.page.screenshot({ path: join(dir, `upload-allowance-${theme}-${viewport.width}.png`), animations: 'disabled' });
      }
    }
    await reporter.context.close();
  });
});
