import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import {
  DESK,
  REASON_TEMPLATES,
  REJECTION_REASON,
  REVERSAL,
  type AdminPhotoPage,
  type BulkApprovalResult,
  type DeskClaim,
  type DeskNext,
  type GalleryStats,
  type Photo,
  type ReasonTemplate,
  type ReasonTemplateList,
  type ReviewFigures,
} from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { type Client, anonymous, json, message, productApi } from './api-client.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let db: pg.Client;
let ann: TestBrowser;
let bob: TestBrowser;
let owner: TestBrowser;
let voters: TestBrowser[];
let newcomer: TestBrowser;
let disabled: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const { send, member, idOf } = productApi(() => system.url);
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

async function upload(description: string): Promise<number> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(fixture('rotated-gps.jpg'))]), 'crack.jpg');
  return (await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201)).id;
}
const review = (admin: Client, id: number, status: 'approved' | 'rejected', rejectionReason?: string) =>
  send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status, ...(rejectionReason ? { rejectionReason } : {}) });
const next = (admin: Client, body: { skipped?: number[]; deciding?: number[] } = {}) => send(admin, 'POST', '/api/admin/desk/next', body);
const myPhoto = async (photoId: number) => (await json<Photo[]>(await send(owner, 'GET', '/api/user/photos'))).find((photo) => photo.id === photoId);
const galleryStats = async () => json<GalleryStats>(await send(anonymous, 'GET', '/api/stats/gallery'));
const auditOf = async (photoId: number) =>
  (await json<AdminPhotoPage>(await send(ann, 'GET', '/api/admin/photos/all?limit=100'))).photos.find((p) => p.id === photoId)!.auditLog.map((e) => [e.action, e.reason]);

/** Decides every pending photo, so each test starts from an empty queue. */
async function emptyQueue(): Promise<void> {
  await db.query('DELETE FROM moderation.review_claims');
  const pending = await json<AdminPhotoPage>(await send(ann, 'GET', '/api/admin/photos/pending?limit=100'));
  for (const photo of pending.photos) await json(await review(ann, photo.id, 'approved'));
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'ann@example.com,bob@example.com', RATE_LIMIT_REPORTS: '1000/1m' });
  db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  [ann, bob, owner, ...voters] = await Promise.all([
    member('ann@example.com', 'Ann Admin'),
    member('bob@example.com', 'Bob Admin'),
    member('owner@example.com', 'Owner Example'),
    member('v1@example.com', 'Voter One'),
    member('v2@example.com', 'Voter Two'),
    member('v3@example.com', 'Voter Three'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  disabled = await member('gone@example.com', 'Gone Member');
  await json(await send(ann, 'PATCH', `/api/admin/users/${await idOf(disabled)}`, { isEnabled: false }));
  // The owner uploads more than the basic allowance lets wait at once.
  await json(await send(ann, 'PUT', '/api/admin/upload-allowance', { pendingLimit: 1000, trustedAfter: 1000, trustedPendingLimit: 1000 }));
}, 120_000);
afterAll(async () => {
  await db?.end();
  await system?.stop();
});

describe('who may use the desk', () => {
  it('answers 401 signed out and 403 to members, without the terms and when disabled, on every route; nothing changes', async () => {
    const photoId = await upload('Matrix');
    const template = (await json<ReasonTemplateList>(await send(ann, 'GET', '/api/admin/reason-templates'))).templates[0]!;
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/admin/desk/next', {}],
      ['POST', `/api/admin/desk/claims/${photoId}/renewal`],
      ['DELETE', `/api/admin/desk/claims/${photoId}`],
      ['POST', '/api/admin/photos/approvals', { photoIds: [photoId] }],
      ['POST', `/api/admin/photos/${photoId}/reversal`, { decision: 'remove', reason: 'No' }],
      ['GET', '/api/admin/reason-templates'],
      ['POST', '/api/admin/reason-templates', { label: 'X', text: 'Y' }],
      ['PUT', `/api/admin/reason-templates/${template.id}`, { label: 'X', text: 'Y' }],
      ['DELETE', `/api/admin/reason-templates/${template.id}`],
      ['GET', '/api/admin/review-figures'],
    ];
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['terms pending', newcomer, 403],
      ['disabled', disabled, 403],
      ['a member', voters[0]!, 403],
      ['the owner', owner, 403],
    ] as const) {
      for (const [method, path, body] of calls) {
        const response = await send(client, method, path, body);
        expect(response.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await response.json()) as { message?: string }).message).toEqual(expect.any(String));
      }
    }
    expect(await myPhoto(photoId)).toMatchObject({ status: 'pending' });
    expect((await db.query('SELECT 1 FROM moderation.review_claims')).rowCount).toBe(0);
    expect((await json<ReasonTemplateList>(await send(ann, 'GET', '/api/admin/reason-templates'))).templates[0]).toEqual(template);
    await emptyQueue();
  });
});

describe('review next', () => {
  it('hands the longest-waiting photo out first, a new upload, a resubmission or a reported photo, each to one admin', async () => {
    await emptyQueue();
    const held = await upload('Held by reports');
    await json(await review(ann, held, 'approved'));
    const rejected = await upload('Rejected then resubmitted');
    await json(await review(ann, rejected, 'rejected', 'Shows a face'));
    const fresh = await upload('A fresh upload');
    // The resubmission and the hold come after the fresh upload: they wait from then.
    await json(await send(owner, 'POST', `/api/photos/${rejected}/resubmission`, { note: 'Covered it' }));
    for (const voter of voters) await json(await send(voter, 'POST', `/api/photos/${held}/reports`, { category: 'personal_data', note: `${voter === voters[0] ? 'A face' : ''}` }), 201);

    const first = await json<DeskNext>(await next(ann));
    expect(first).toMatchObject({ waiting: 3, item: { kind: 'new', photo: { id: fresh, status: 'pending' }, reporters: 0, reports: [] } });
    expect(Date.parse(first.item!.claim.expiresAt!) - Date.now()).toBeGreaterThan((DESK.claimSeconds - 10) * 1000);
    const second = await json<DeskNext>(await next(bob));
    expect(second).toMatchObject({ waiting: 2, item: { kind: 'resubmission', photo: { id: rejected, resubmission: { note: 'Covered it' } } } });
    // Ann skips hers: it is released, and she gets the reported photo with its reports.
    const third = await json<DeskNext>(await next(ann, { skipped: [fresh] }));
    expect(third.item).toMatchObject({ kind: 'reported', photo: { id: held, underReview: true }, reporters: 3, reports: [{ category: 'personal_data', count: 3, notes: ['A face'] }] });
    // Bob, on his resubmission, is not handed Ann's photo: the skipped one is free again and comes to him.
    expect((await json<DeskNext>(await next(bob, { deciding: [rejected] }))).item?.photo.id).toBe(fresh);
    // Nothing else is free for Ann (she skipped the fresh one, Bob holds the others).
    expect(await json<DeskNext>(await next(ann, { skipped: [fresh], deciding: [held] }))).toEqual({ item: null, waiting: 0 });
    await emptyQueue();
  });

  it('never hands two admins asking at once the same photo', async () => {
    await emptyQueue();
    const ids = [await upload('One'), await upload('Two'), await upload('Three')];
    for (let round = 0; round < 5; round++) {
      await db.query('DELETE FROM moderation.review_claims');
      const [a, b] = await Promise.all([json<DeskNext>(await next(ann)), json<DeskNext>(await next(bob))]);
      expect(ids).toContain(a.item!.photo.id);
      expect(ids).toContain(b.item!.photo.id);
      expect(a.item!.photo.id).not.toBe(b.item!.photo.id);
    }
    const claims = await db.query<{ photo_id: string; admin_id: string }>('SELECT photo_id, admin_id FROM moderation.review_claims');
    expect(claims.rowCount).toBe(2);
    await emptyQueue();
  });

  it("refuses other admins' decisions on a claimed photo until the claim ends; an abandoned claim expires and a renewal then fails", async () => {
    await emptyQueue();
    const photoId = await upload('Claimed');
    const other = await upload('Free');
    const { item } = await json<DeskNext>(await next(ann));
    expect(item!.photo.id).toBe(photoId);

    expect(await message(await review(bob, photoId, 'approved'), 409)).toBe(DESK.claimedByOther);
    expect(await message(await send(bob, 'POST', `/api/admin/desk/claims/${photoId}/renewal`), 409)).toBe(DESK.claimLost);
    const bulk = await json<BulkApprovalResult>(await send(bob, 'POST', '/api/admin/photos/approvals', { photoIds: [photoId, other] }));
    expect(bulk).toEqual({ approved: [other], failed: [{ photoId, message: DESK.claimedByOther }] });
    expect(await myPhoto(photoId)).toMatchObject({ status: 'pending' });

    // Ann keeps it by renewing; then she walks away and the claim runs out: Bob takes it, and Ann's renewal fails.
    const renewed = await json<DeskClaim>(await send(ann, 'POST', `/api/admin/desk/claims/${photoId}/renewal`));
    expect(Date.parse(renewed.expiresAt!)).toBeGreaterThanOrEqual(Date.parse(item!.claim.expiresAt!));
    await db.query("UPDATE moderation.review_claims SET expires_at = now() - interval '1 second'");
    expect((await json<DeskNext>(await next(bob))).item?.photo.id).toBe(photoId);
    expect(await message(await send(ann, 'POST', `/api/admin/desk/claims/${photoId}/renewal`), 409)).toBe(DESK.claimLost);
    expect(await message(await review(ann, photoId, 'rejected', 'Blurry'), 409)).toBe(DESK.claimedByOther);

    // Bob decides it; the claim goes with the decision. A release of a claim not held does nothing.
    expect((await send(ann, 'DELETE', `/api/admin/desk/claims/${photoId}`)).status).toBe(204);
    await json(await review(bob, photoId, 'approved'));
    expect((await db.query('SELECT 1 FROM moderation.review_claims WHERE photo_id = $1', [photoId])).rowCount).toBe(0);
    expect(await json<DeskNext>(await next(ann))).toEqual({ item: null, waiting: 0 });
  });

  it('refuses bad input with the contract messages', async () => {
    expect(await message(await next(ann, { skipped: Array.from({ length: 101 }, (_, i) => i + 1) }), 400)).toBe(DESK.tooManyExcluded);
    expect((await next(ann, { skipped: ['x'] as unknown as number[] })).status).toBe(400);
    expect((await send(ann, 'POST', '/api/admin/desk/claims/abc/renewal')).status).toBe(400);
    expect(await message(await send(ann, 'POST', '/api/admin/desk/claims/999999/renewal'), 409)).toBe(DESK.claimLost);
  });
});

describe('bulk approval', () => {
  it('approves the pending photos chosen, each audited, and lists the rest with why', async () => {
    await emptyQueue();
    const [a, b] = [await upload('Bulk A'), await upload('Bulk B')];
    const done = await upload('Already approved');
    await json(await review(ann, done, 'approved'));
    const result = await json<BulkApprovalResult>(await send(ann, 'POST', '/api/admin/photos/approvals', { photoIds: [a, done, b, 999_999, a] }));
    expect(result.approved).toEqual([a, b]);
    expect(result.failed.map((f) => f.photoId)).toEqual([done, 999_999]);
    expect(result.failed.every((f) => f.message.length > 0)).toBe(true);
    expect(await myPhoto(a)).toMatchObject({ status: 'approved' });
    expect(await auditOf(b)).toEqual([['approve', null]]);

    expect(await message(await send(ann, 'POST', '/api/admin/photos/approvals', { photoIds: [] }), 400)).toBe(DESK.bulkEmpty);
    expect(await message(await send(ann, 'POST', '/api/admin/photos/approvals', { photoIds: Array.from({ length: 51 }, (_, i) => i + 1) }), 400)).toBe(DESK.bulkTooMany);
    expect(await message(await send(ann, 'POST', '/api/admin/photos/approvals', { photoIds: [-1] }), 400)).toBe(DESK.bulkEmpty);
  });
});

describe('reversible decisions', () => {
  it('removes an approved photo and approves it again: the gallery, its votes and the figures follow exactly', async () => {
    const photoId = await upload('Reversible crack');
    await json(await review(ann, photoId, 'approved'));
    const approvedAt = (await myPhoto(photoId))!.approvedAt;
    const before = await galleryStats();
    for (const [i, voter] of voters.entries()) await json(await send(voter, 'POST', `/api/photos/${photoId}/vote`, { rating: i + 3 }));
    let counted: GalleryStats | undefined;
    await eventually(async () => {
      counted = await galleryStats();
      expect(counted).toMatchObject({ photoCount: before.photoCount, totalVotes: before.totalVotes + 3 });
    });

    const removed = await json<Photo>(await send(bob, 'POST', `/api/admin/photos/${photoId}/reversal`, { decision: 'remove', reason: 'Shows a licence plate' }));
    expect(removed).toMatchObject({ status: 'rejected', rejectionReason: 'Shows a licence plate' });
    await eventually(async () => expect(await galleryStats()).toMatchObject({ photoCount: counted!.photoCount - 1, totalVotes: counted!.totalVotes - 3 }));
    expect(await message(await send(voters[0]!, 'POST', `/api/photos/${photoId}/vote`, { rating: 1 }), 404)).toEqual(expect.any(String));
    expect(await myPhoto(photoId)).toMatchObject({ status: 'rejected', rejectionReason: 'Shows a licence plate' });

    const back = await json<Photo>(await send(ann, 'POST', `/api/admin/photos/${photoId}/reversal`, { decision: 'approve', reason: 'The plate is unreadable' }));
    expect(back).toMatchObject({ status: 'approved', rejectionReason: null, approvedAt, voteCount: 3 });
    await eventually(async () => expect(await galleryStats()).toEqual(counted));
    expect(await auditOf(photoId)).toEqual([
      ['reinstate', 'The plate is unreadable'],
      ['remove', 'Shows a licence plate'],
      ['approve', null],
    ]);
  });

  it('refuses a reversal of the wrong kind or without a reason, and changes nothing', async () => {
    const pending = await upload('Still pending');
    expect(await message(await send(ann, 'POST', `/api/admin/photos/${pending}/reversal`, { decision: 'remove', reason: 'x' }), 409)).toBe(REVERSAL.notApproved);
    expect(await message(await send(ann, 'POST', `/api/admin/photos/${pending}/reversal`, { decision: 'approve', reason: 'x' }), 409)).toBe(REVERSAL.notRejected);
    expect(await message(await send(ann, 'POST', `/api/admin/photos/${pending}/reversal`, { decision: 'approve', reason: '  ' }), 400)).toBe(REVERSAL.reasonRequired);
    expect(await message(await send(ann, 'POST', `/api/admin/photos/${pending}/reversal`, { decision: 'undo', reason: 'x' }), 400)).toBe(REVERSAL.decisionInvalid);
    expect(await message(await send(ann, 'POST', `/api/admin/photos/${pending}/reversal`, { decision: 'remove', reason: 'x'.repeat(501) }), 400)).toBe(REJECTION_REASON.tooLong);
    expect((await send(ann, 'POST', '/api/admin/photos/999999/reversal', { decision: 'remove', reason: 'x' })).status).toBe(404);
    expect(await myPhoto(pending)).toMatchObject({ status: 'pending' });
    await emptyQueue();
  });
});

describe('reason templates', () => {
  it('starts with a few, and admins add, change and delete them, at most 20', async () => {
    const { templates } = await json<ReasonTemplateList>(await send(ann, 'GET', '/api/admin/reason-templates'));
    expect(templates.map((t) => t.label)).toEqual(['Not a crack', 'Faces or personal data', 'Too blurry or dark', 'Duplicate']);

    const added = await json<ReasonTemplate>(await send(ann, 'POST', '/api/admin/reason-templates', { label: '  Too small ', text: 'The crack is too small to see.' }), 201);
    expect(added).toMatchObject({ label: 'Too small', text: 'The crack is too small to see.' });
    const changed = await json<ReasonTemplate>(await send(bob, 'PUT', `/api/admin/reason-templates/${added.id}`, { label: 'Tiny', text: 'Too small to see.' }));
    expect(changed).toMatchObject({ id: added.id, label: 'Tiny', text: 'Too small to see.' });
    expect((await json<ReasonTemplateList>(await send(ann, 'GET', '/api/admin/reason-templates'))).templates.at(-1)).toEqual(changed);

    expect(await message(await send(ann, 'POST', '/api/admin/reason-templates', { label: '', text: 'x' }), 400)).toBe(REASON_TEMPLATES.labelRequired);
    expect(await message(await send(ann, 'POST', '/api/admin/reason-templates', { label: 'x'.repeat(61), text: 'x' }), 400)).toBe(REASON_TEMPLATES.labelTooLong);
    expect(await message(await send(ann, 'POST', '/api/admin/reason-templates', { label: 'x', text: ' ' }), 400)).toBe(REJECTION_REASON.required);
    expect(await message(await send(ann, 'POST', '/api/admin/reason-templates', { label: 'x', text: 'x'.repeat(501) }), 400)).toBe(REJECTION_REASON.tooLong);
    expect(await message(await send(ann, 'PUT', '/api/admin/reason-templates/not-an-id', { label: 'x', text: 'y' }), 404)).toBe(REASON_TEMPLATES.notFound);
    expect(await message(await send(ann, 'DELETE', '/api/admin/reason-templates/00000000-0000-4000-8000-000000000000'), 404)).toBe(REASON_TEMPLATES.notFound);

    // Up to 20, even when asked for at once.
    const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => send(ann, 'POST', '/api/admin/reason-templates', { label: `T${i}`, text: `Reason ${i}` })));
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(REASON_TEMPLATES.max - 5);
    expect(attempts.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await message(await send(ann, 'POST', '/api/admin/reason-templates', { label: 'One more', text: 'x' }), 409)).toBe(REASON_TEMPLATES.limitReached);

    expect((await send(ann, 'DELETE', `/api/admin/reason-templates/${added.id}`)).status).toBe(204);
    const left = (await json<ReasonTemplateList>(await send(ann, 'GET', '/api/admin/reason-templates'))).templates;
    expect(left).toHaveLength(REASON_TEMPLATES.max - 1);
    expect(left.some((t) => t.id === added.id)).toBe(false);
  });
});

describe('reviewer figures', () => {
  it('counts decisions per admin per day, the median wait from upload to decision, reports per category and reporters mostly dismissed', async () => {
    await emptyQueue();
    const before = await json<ReviewFigures>(await send(ann, 'GET', '/api/admin/review-figures?days=7'));
    const photos = [await upload('F1'), await upload('F2'), await upload('F3')];
    await json(await review(bob, photos[0]!, 'approved'));
    await json(await review(bob, photos[1]!, 'rejected', 'Blurry'));
    await json(await review(ann, photos[2]!, 'approved'));

    // A reporter whose three reports were all dismissed.
    const reporter = await member('rita@example.com', 'Reporter Rita');
    for (const photoId of photos.filter((_, i) => i !== 1)) await json(await send(reporter, 'POST', `/api/photos/${photoId}/reports`, { category: 'spam' }), 201);
    const third = await upload('F4');
    await json(await review(ann, third, 'approved'));
    await json(await send(reporter, 'POST', `/api/photos/${third}/reports`, { category: 'offensive' }), 201);
    for (const photoId of [photos[0]!, photos[2]!, third]) await json(await send(ann, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'dismiss' }));

    const figures = await json<ReviewFigures>(await send(ann, 'GET', '/api/admin/review-figures?days=7'));
    expect(figures.days).toBe(7);
    const today = new Date().toISOString().slice(0, 10);
    const countOf = (f: ReviewFigures, name: string) => f.decisions.find((d) => d.name === name)?.total ?? 0;
    expect(countOf(figures, 'Bob Admin') - countOf(before, 'Bob Admin')).toBe(2);
    // Ann: two approvals and three dismissals of reports.
    expect(countOf(figures, 'Ann Admin') - countOf(before, 'Ann Admin')).toBe(5);
    expect(figures.decisions.find((d) => d.name === 'Ann Admin')!.perDay.at(-1)).toMatchObject({ day: today });
    expect(figures.measuredDecisions - before.measuredDecisions).toBe(4);
    expect(figures.medianUploadToDecisionSeconds).toEqual(expect.any(Number));
    expect(figures.medianUploadToDecisionSeconds!).toBeLessThan(60);
    expect(figures.reportsByCategory).toHaveLength(6);
    const spam = figures.reportsByCategory.find((c) => c.category === 'spam')!;
    const spamBefore = before.reportsByCategory.find((c) => c.category === 'spam')!;
    expect({ total: spam.total - spamBefore.total, dismissed: spam.dismissed - spamBefore.dismissed }).toEqual({ total: 2, dismissed: 2 });
    expect(figures.reportersMostlyDismissed).toContainEqual({ userId: await idOf(reporter), name: 'Reporter Rita', decided: 3, dismissed: 3 });

    // The median is over first approvals and rejections, from the upload time each entry keeps: with everything else
    // moved out of the window, waits of 1, 2, 3 and 4 hours make 2.5 hours.
    const measured = [...photos, third];
    await db.query("UPDATE moderation.moderation_actions SET created_at = created_at - interval '30 days' WHERE NOT (photo_id = ANY($1::bigint[]))", [measured]);
    for (const [i, photoId] of measured.entries()) {
      await db.query(`UPDATE moderation.moderation_actions SET photo_uploaded_at = created_at - interval '${i + 1} hours' WHERE photo_id = $1`, [photoId]);
    }
    const window = await json<ReviewFigures>(await send(ann, 'GET', '/api/admin/review-figures?days=7'));
    expect(window).toMatchObject({ medianUploadToDecisionSeconds: 9000, measuredDecisions: 4 });

    expect(await message(await send(ann, 'GET', '/api/admin/review-figures?days=91'), 400)).toEqual(expect.any(String));
    expect((await send(ann, 'GET', '/api/admin/review-figures?days=0')).status).toBe(400);
  });
});
