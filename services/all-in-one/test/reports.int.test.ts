import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { REFUSALS, REPORTS, type GalleryStats, type Photo, type ReportPage, type ReportResult, type ReportedPhotoPage } from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { type Client, anonymous, json, message, productApi } from './api-client.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let owner: TestBrowser;
let reporters: TestBrowser[];
let newcomer: TestBrowser;
let disabled: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const { send, member, idOf } = productApi(() => system.url);
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

/** A photo of the owner's, uploaded and approved. */
async function approvedPhoto(description = 'A crack in the wall'): Promise<number> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(fixture('rotated-gps.jpg'))]), 'crack.jpg');
  const { id } = await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201);
  await json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' }));
  return id;
}
const report = (client: Client, photoId: number, body: unknown = { category: 'not_a_crack' }) => send(client, 'POST', `/api/photos/${photoId}/reports`, body);
const myPhoto = async (photoId: number) => (await json<Photo[]>(await send(owner, 'GET', '/api/user/photos'))).find((photo) => photo.id === photoId);
const inGallery = async (photoId: number) => {
  const page = await json<{ photos: { id: number }[] }>(await send(anonymous, 'GET', '/api/gallery/new-this-week?limit=50'));
  return page.photos.some((photo) => photo.id === photoId);
};
const reportedPhotos = async (query = '') => json<ReportedPhotoPage>(await send(admin, 'GET', `/api/admin/reports${query}`));
const galleryStats = async () => json<GalleryStats>(await send(anonymous, 'GET', '/api/stats/gallery'));
const myReports = async (client: Client) => json<ReportPage>(await send(client, 'GET', '/api/user/reports'));

beforeAll(async () => {
  // The reporters here send more reports than a member may in an hour (the limit has its own test: member-limits).
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com', REPORTS_TO_HOLD: '3', RATE_LIMIT_REPORTS: '1000/1m' });
  [admin, owner, ...reporters] = await Promise.all([
    member('boss@example.com', 'Boss Example'),
    member('owner@example.com', 'Owner Example'),
    member('r1@example.com', 'Reporter One'),
    member('r2@example.com', 'Reporter Two'),
    member('r3@example.com', 'Reporter Three'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  disabled = await member('gone@example.com', 'Gone Member');
  const disabledId = await idOf(disabled);
  await json(await send(admin, 'PATCH', `/api/admin/users/${disabledId}`, { isEnabled: false }));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('who may report and decide', () => {
  it('answers 401 signed out, 403 without the terms or when disabled, 403 to members on the admin routes, and changes nothing on refusal', async () => {
    const photoId = await approvedPhoto();
    const memberCalls: [string, string, unknown?][] = [
      ['POST', `/api/photos/${photoId}/reports`, { category: 'spam' }],
      ['GET', '/api/user/reports'],
    ];
    const adminCalls: [string, string, unknown?][] = [
      ['GET', '/api/admin/reports'],
      ['POST', `/api/admin/reports/${photoId}/decision`, { decision: 'remove', reason: 'Nope' }],
    ];
    for (const [who, client, status, calls] of [
      ['signed out', anonymous, 401, [...memberCalls, ...adminCalls]],
      ['terms pending', newcomer, 403, [...memberCalls, ...adminCalls]],
      ['disabled', disabled, 403, [...memberCalls, ...adminCalls]],
      ['a member', reporters[0]!, 403, adminCalls],
    ] as const) {
      for (const [method, path, body] of calls) {
        const response = await send(client, method, path, body);
        expect(response.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await response.json()) as { message?: string }).message).toEqual(expect.any(String));
      }
    }
    expect((await reportedPhotos()).photos.find((p) => p.photoId === photoId)).toBeUndefined();
    expect(await myPhoto(photoId)).toMatchObject({ status: 'approved', underReview: false });

    // The owner cannot report their own photo; an admin is a member and may report someone else's.
    expect(await message(await report(owner, photoId), 403)).toBe(REFUSALS.ownPhotoReport);
    const byAdmin = await json<ReportResult>(await report(admin, photoId, { category: 'copyright', note: 'Mine, taken in 2019' }), 201);
    expect(byAdmin).toMatchObject({ photoHeld: false, report: { photoId, category: 'copyright', note: 'Mine, taken in 2019', status: 'open' } });
  });

  it('refuses bad input with the contract messages, stores nothing, and allows one open report per member per photo', async () => {
    const photoId = await approvedPhoto();
    const [alice] = reporters;
    expect(await message(await report(alice!, photoId, { category: 'ugly' }), 400)).toBe(REPORTS.categoryInvalid);
    expect(await message(await report(alice!, photoId, {}), 400)).toBe(REPORTS.categoryInvalid);
    expect(await message(await report(alice!, photoId, { category: 'spam', note: 'x'.repeat(501) }), 400)).toBe(REPORTS.noteTooLong);
    expect((await report(alice!, 0)).status).toBe(400);
    expect(await message(await report(alice!, 999_999), 404)).toBe(REPORTS.notFound);
    expect((await myReports(alice!)).reports.filter((r) => r.photoId === photoId)).toEqual([]);

    // A blank note is none; a second report while the first is open is refused, and two at once leave one.
    const [first, second] = await Promise.all([report(alice!, photoId, { category: 'spam', note: '   ' }), report(alice!, photoId, { category: 'other' })]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    expect(await message(await report(alice!, photoId), 409)).toBe(REPORTS.alreadyReported);
    const mine = (await myReports(alice!)).reports.filter((r) => r.photoId === photoId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'open', photoDescription: 'A crack in the wall' });

    // A pending photo (someone else's) is no approved photo.
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(fixture('photo.webp'))]), 'pending.webp');
    const { id: pendingId } = await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201);
    expect(await message(await report(alice!, pendingId), 404)).toBe(REPORTS.notFound);

    // The admin's decision needs a known decision and, to remove, a reason.
    expect((await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'ban' })).status).toBe(400);
    expect(await message(await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'remove' }), 400)).toBe(REPORTS.removalReasonRequired);
    expect(await message(await send(admin, 'POST', `/api/admin/reports/${pendingId}/decision`, { decision: 'dismiss' }), 409)).toBe(REPORTS.nothingToDecide);
    expect((await send(admin, 'GET', '/api/admin/reports?order=loudest')).status).toBe(400);
    expect(await myPhoto(photoId)).toMatchObject({ status: 'approved' });
  });
});

describe('reports take a photo back to review, and the decision reaches everyone', () => {
  it('holds the photo at three reporters, hides it from the gallery and votes, and a removal reaches owner and reporters', async () => {
    const photoId = await approvedPhoto('Crack by the station');
    await eventually(async () => expect(await inGallery(photoId)).toBe(true));
    const [r1, r2, r3] = reporters as [TestBrowser, TestBrowser, TestBrowser];
    expect((await json<{ voteCount: number }>(await send(r1, 'POST', `/api/photos/${photoId}/vote`, { rating: 4 }))).voteCount).toBe(1);

    expect((await json<ReportResult>(await report(r1, photoId, { category: 'personal_data', note: 'A face at the left' }), 201)).photoHeld).toBe(false);
    expect((await json<ReportResult>(await report(r2, photoId, { category: 'personal_data' }), 201)).photoHeld).toBe(false);
    expect(await myPhoto(photoId)).toMatchObject({ status: 'approved', underReview: false });
    expect((await json<ReportResult>(await report(r3, photoId, { category: 'offensive', note: 'Rude words' }), 201)).photoHeld).toBe(true);

    // Out of the gallery and not votable; the owner sees it under review, with no reporter named anywhere.
    expect(await myPhoto(photoId)).toMatchObject({ status: 'pending', underReview: true });
    await eventually(async () => expect(await inGallery(photoId)).toBe(false));
    expect((await send(r2, 'POST', `/api/photos/${photoId}/vote`, { rating: 5 })).status).toBe(404);
    const ownerView = JSON.stringify(await json(await send(owner, 'GET', '/api/user/photos')));
    for (const reporter of reporters) expect(ownerView).not.toContain(await idOf(reporter));

    // The admin's list: the photo, its three reporters, the reports grouped by category with their notes.
    const listed = (await reportedPhotos('?order=most-reported')).photos.find((p) => p.photoId === photoId);
    expect(listed).toMatchObject({
      reporters: 3,
      photo: { id: photoId, status: 'pending', underReview: true },
      groups: [
        { category: 'personal_data', count: 2, notes: ['A face at the left'] },
        { category: 'offensive', count: 1, notes: ['Rude words'] },
      ],
    });
    const pending = await json<{ photos: { id: number; underReview: boolean }[] }>(await send(admin, 'GET', '/api/admin/photos/pending?limit=100'));
    expect(pending.photos.find((p) => p.id === photoId)).toMatchObject({ underReview: true });

    // Removed with a reason: the owner reads it as a rejection's; every reporter sees "removed", none sees the others.
    const decided = await json<{ photo: Photo; closed: number }>(
      await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'remove', reason: 'Shows a face' }),
    );
    expect(decided).toMatchObject({ closed: 3, photo: { status: 'rejected', rejectionReason: 'Shows a face', underReview: false } });
    expect(await myPhoto(photoId)).toMatchObject({ status: 'rejected', rejectionReason: 'Shows a face' });
    for (const reporter of [r1, r2, r3]) {
      const mine = (await myReports(reporter)).reports.filter((r) => r.photoId === photoId);
      expect(mine).toEqual([expect.objectContaining({ status: 'removed', decidedAt: expect.any(String) })]);
      expect(JSON.stringify(mine)).not.toContain('reporter');
    }
    expect((await reportedPhotos()).photos.find((p) => p.photoId === photoId)).toBeUndefined();
    const audit = await json<{ photos: { id: number; auditLog: { action: string; actorId: string; reason: string | null }[] }[] }>(
      await send(admin, 'GET', '/api/admin/photos/all?limit=100'),
    );
    const actions = audit.photos.find((p) => p.id === photoId)!.auditLog.map((entry) => [entry.action, entry.reason]);
    expect(actions).toEqual([
      ['remove', 'Shows a face'],
      ['hold', null],
      ['approve', null],
    ]);
  });

  it('a dismissal returns a held photo to the gallery where it was, with its votes, and members may report it again', async () => {
    const photoId = await approvedPhoto('Crack under the bridge');
    const [r1, r2, r3] = reporters as [TestBrowser, TestBrowser, TestBrowser];
    await json(await send(r1, 'POST', `/api/photos/${photoId}/vote`, { rating: 5 }));
    const before = await myPhoto(photoId);
    let counted: GalleryStats | undefined;
    await eventually(async () => {
      counted = await galleryStats();
      expect(counted.totalVotes).toBeGreaterThan(0);
      expect(await inGallery(photoId)).toBe(true);
    });
    for (const reporter of [r1, r2, r3]) await json(await report(reporter, photoId), 201);
    expect(await myPhoto(photoId)).toMatchObject({ status: 'pending', underReview: true });
    // While held, the photo and its vote leave the community's figures; they come back with it.
    await eventually(async () => expect(await galleryStats()).toMatchObject({ photoCount: counted!.photoCount - 1, totalVotes: counted!.totalVotes - 1 }));

    const decided = await json<{ photo: Photo; closed: number }>(await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'dismiss' }));
    expect(decided).toMatchObject({ closed: 3, photo: { status: 'approved', underReview: false, approvedAt: before!.approvedAt, voteCount: 1 } });
    await eventually(async () => expect(await inGallery(photoId)).toBe(true));
    await eventually(async () => expect(await galleryStats()).toEqual(counted));
    for (const reporter of [r1, r2, r3]) {
      expect((await myReports(reporter)).reports.find((r) => r.photoId === photoId)).toMatchObject({ status: 'dismissed' });
    }
    // Dismissed reports are closed: a member may report the photo again, which opens a new report.
    expect((await json<ReportResult>(await report(r1, photoId), 201)).photoHeld).toBe(false);
    expect((await reportedPhotos()).photos.find((p) => p.photoId === photoId)).toMatchObject({ reporters: 1 });

    // Below the threshold, dismissing leaves the photo in the gallery; an approval from the pending list would also
    // have closed the reports (checked next through a removal's event: a deletion by its owner).
    await json(await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'dismiss' }));
    expect(await myPhoto(photoId)).toMatchObject({ status: 'approved' });
    expect(await message(await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'dismiss' }), 409)).toBe(REPORTS.nothingToDecide);
  });

  it("closes a photo's open reports as removed when its owner deletes it, and when an admin rejects it from the pending list", async () => {
    const deleted = await approvedPhoto('Soon gone');
    const [r1, r2, r3] = reporters as [TestBrowser, TestBrowser, TestBrowser];
    await json(await report(r1, deleted), 201);
    expect((await send(owner, 'DELETE', `/api/photos/${deleted}`)).status).toBe(204);
    await eventually(async () => expect((await myReports(r1)).reports.find((r) => r.photoId === deleted)).toMatchObject({ status: 'removed' }));
    expect((await reportedPhotos()).photos.find((p) => p.photoId === deleted)).toBeUndefined();

    const held = await approvedPhoto('Held then rejected');
    for (const reporter of [r1, r2, r3]) await json(await report(reporter, held), 201);
    await json(await send(admin, 'PATCH', `/api/admin/photos/${held}/status`, { status: 'rejected', rejectionReason: 'Not a crack' }));
    await eventually(async () => {
      for (const reporter of [r1, r2, r3]) expect((await myReports(reporter)).reports.find((r) => r.photoId === held)).toMatchObject({ status: 'removed' });
    });
  });
});
