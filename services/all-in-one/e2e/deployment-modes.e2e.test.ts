import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SERVICE_NAMES } from '@snapcracks/kit';
import { expectText, fixtureImage, launchBrowser, signedInMember, uploadThroughApi } from './browser.js';
import { startContainers, startSplit, type Deployment } from './deployment.js';

/**
 * The member and admin paths of the spec, run against the product deployed as separate components: split mode
 * (plain processes) always, and the containers of `pnpm start:containers` when E2E_CONTAINERS=1 (CI builds the
 * images; a developer's run would spend minutes on them). The rest of the end-to-end tier runs all-in-one.
 */
const MODES = [
  { name: 'split', start: startSplit },
  ...(process.env.E2E_CONTAINERS === '1' ? [{ name: 'containers', start: startContainers }] : []),
];

const ADMIN = { email: 'ada.admin@example.com', name: 'Ada Admin' };
const OWNER = { email: 'olu.owner@example.com', name: 'Olu Owner' };
const VOTERS = [
  { email: 'vi.voter@example.com', name: 'Vi Voter' },
  { email: 'val.voter@example.com', name: 'Val Voter' },
];
const DESCRIPTION = 'A crack along the harbour wall';
const BAR = { x: 10, y: 20, width: 30, height: 15 };

describe.each(MODES)('the product as separate components ($name)', ({ start }) => {
  let deployment: Deployment;
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let owner: { context: BrowserContext; page: Page };
  let photoId: number;

  beforeAll(async () => {
    [deployment, browser] = await Promise.all([start({ ADMIN_EMAILS: ADMIN.email }), launchBrowser()]);
  }, 900_000);
  // A failure shows the deployment's last lines: the components' own words on what went wrong.
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => {
      if (deployment) console.error(`the launcher's last output:\n${deployment.output().slice(-3000)}\nthe components' last lines:\n${deployment.componentLogs()}`);
    }),
  );
  afterAll(async () => {
    await browser?.close();
    if (!deployment) return;
    // Stops cleanly, and leaves nothing running behind.
    expect(await deployment.stop(), deployment.output().slice(-3000)).toBe(0);
    expect(await deployment.leftovers()).toEqual([]);
  }, 120_000);

  // The first requests meet components that have just started (cold code, first connections): on a machine busy with
  // the rest of the run, the containers' took more than a minute once, so this test allows two.
  it('signs a member in through the identity provider and takes them through the terms', { timeout: 120_000 }, async () => {
    // signedInMember signs in on the identity provider's page and ticks and accepts the terms, as a person does.
    owner = await signedInMember(browser, deployment.url, OWNER);
    const me = await owner.context.request.get(`${deployment.url}/api/auth/user`);
    expect(await me.json()).toMatchObject({ email: OWNER.email, hasAcceptedTerms: true, isAdmin: false });
  });

  it('takes an upload with a privacy bar, and the admin sees it pending and approves it', async () => {
    ({ id: photoId } = await uploadThroughApi(owner.context, deployment.url, DESCRIPTION, fixtureImage('photo.png')));
    const bars = await owner.context.request.post(`${deployment.url}/api/photos/${photoId}/privacy-bars`, { data: { bars: [BAR] }, headers: { Origin: deployment.url } });
    expect(bars.status(), await bars.text()).toBe(200);

    admin = await signedInMember(browser, deployment.url, ADMIN);
    await admin.page.goto(`${deployment.url}/admin`);
    await expectText(admin.page, 'Admin Panel');
    await expectText(admin.page, DESCRIPTION);
    // The review desk hands it out (moderation asks photo for its queue across processes) under the admin's claim.
    const desk = await admin.context.request.post(`${deployment.url}/api/admin/desk/next`, { data: {}, headers: { Origin: deployment.url } });
    expect(desk.status(), await desk.text()).toBe(200);
    expect((await desk.json()) as unknown).toMatchObject({ item: { kind: 'new', photo: { id: photoId }, claim: { photoId } }, waiting: 1 });
    const approved = await admin.context.request.patch(`${deployment.url}/api/admin/photos/${photoId}/status`, { data: { status: 'approved' }, headers: { Origin: deployment.url } });
    expect(approved.status(), await approved.text()).toBe(200);
    expect((await approved.json()) as unknown).toMatchObject({ status: 'approved', privacyBars: [expect.objectContaining(BAR)] });
  });

  it('counts votes from two members, spread over both vote replicas, in the gallery’s totals', async () => {
    for (const [index, voter] of VOTERS.entries()) {
      const { context } = await signedInMember(browser, deployment.url, voter);
      const vote = await context.request.post(`${deployment.url}/api/photos/${photoId}/vote`, { data: { rating: 4 + index }, headers: { Origin: deployment.url } });
      expect(vote.status(), await vote.text()).toBe(200);
      // The photo's dialog asks for the member's own vote each time it opens: calls enough for every replica.
      for (let i = 0; i < 4; i++) {
        const mine = await context.request.get(`${deployment.url}/api/photos/${photoId}/vote`);
        expect(await mine.json()).toMatchObject({ rating: 4 + index });
      }
      await context.close();
    }
    // The gallery's totals come from the photo service's read model, fed by the vote service's events.
    await expect
      .poll(
        async () => {
          const gallery = (await (await fetch(`${deployment.url}/api/gallery/all-snaps?page=1&limit=20`)).json()) as { photos: { id: number; voteCount: number; averageRating: number }[] };
          const photo = gallery.photos.find((p) => p.id === photoId);
          return photo && { voteCount: photo.voteCount, averageRating: photo.averageRating };
        },
        { timeout: 20_000 },
      )
      .toEqual({ voteCount: 2, averageRating: 4.5 });

    const visitor = await browser.newPage();
    await visitor.goto(`${deployment.url}/`);
    await expectText(visitor, DESCRIPTION);
    await visitor.close();
  });

  it('serves the admin pages and the contact form', async () => {
    await admin.page.goto(`${deployment.url}/admin/users`);
    await expectText(admin.page, OWNER.name);
    const sent = await fetch(`${deployment.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: deployment.url },
      body: JSON.stringify({ name: 'Sam Sender', email: 'sam@example.com', subject: 'Split question', message: 'Do separate processes keep my message?' }),
    });
    expect(sent.status, await sent.text()).toBe(201);
    const forms = await admin.context.request.get(`${deployment.url}/api/admin/contact-forms?status=all&page=1&limit=10`);
    expect(((await forms.json()) as { items: { subject: string }[] }).items.map((item) => item.subject)).toContain('Split question');
    const stats = await admin.context.request.get(`${deployment.url}/api/admin/stats`);
    expect(stats.status()).toBe(200);
  });

  it('spread the calls over both replicas of photo and vote, and every component’s metrics moved', async () => {
    const metrics = deployment.metrics();
    /** The sum of a metric's series whose line starts with `series` (a name and, optionally, the start of its labels). */
    const total = async (name: string, series: string) => {
      const text = await (await fetch(`${metrics[name]}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith(series))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    };
    // Calls a replica served, over every method: the count series of the server duration histogram.
    const served = (name: string) => total(name, 'rpc_server_duration_seconds_count{');
    for (const name of ['photo-1', 'photo-2', 'vote-1', 'vote-2']) expect(await served(name), name).toBeGreaterThan(0);
    // The flow reached every service: each replica's scrape shows the calls it served.
    const services = Object.keys(metrics).filter((name) => (SERVICE_NAMES as readonly string[]).includes(name.replace(/-\d+$/, '')));
    expect(services.length).toBe(9);
    const calls = Object.fromEntries(await Promise.all(services.map(async (name) => [name, await served(name)] as const)));
    for (const [name, count] of Object.entries(calls)) expect(count, name).toBeGreaterThan(0);
    // Events went through the outbox and the bus: stats handled the votes and the approval.
    const delivered = await total('stats', 'snapcracks_events_delivered_total{');
    expect(delivered).toBeGreaterThan(0);
    expect(await total('storage', 'snapcracks_image_processing_seconds_count{')).toBeGreaterThan(0);
    console.log(`calls served per replica: ${JSON.stringify(calls)}; events stats handled: ${delivered}`);
    const gateway = await (await fetch(`${metrics.gateway}/metrics`)).text();
    expect(gateway).toMatch(/http_server_request_duration_seconds_count\{[^}]*route="\/api\/photos\/:id\/vote"/);
  });
});
