import { readFile } from 'node:fs/promises';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, decodeEventOfType, makeEvent, type Caller, type Database, type EventBus, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { createStorageService } from '@snapcracks/storage';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { UserUpdated, VoteCast, type PhotoState } from '@snapcracks/proto/events/v1';
import { GalleryFilter, PhotoServiceClient, type FeedEntry, type StreamFeedEntriesResponse } from '@snapcracks/proto/photo/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { MAX_GALLERY_CARDS } from './gallery.service.js';
import { photoService } from './index.js';

const ada: Caller = { userId: 'ada', isAdmin: false, hasAcceptedTerms: true };
const bob: Caller = { userId: 'bob', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const jpeg = () => readFile(new URL('../../storage/test/fixtures/rotated-gps.jpg', import.meta.url));

let services: TestServices;
let db: Database<PrismaClient>;
let bus: EventBus;
let gateway: ServiceClient<PhotoServiceClient>;
let moderation: ServiceClient<PhotoServiceClient>;
let stats: ServiceClient<PhotoServiceClient>;

/** The photos the first test makes, by what happened to them. */
const photo = { approved: 0, rejected: 0, pending: 0, held: 0, another: 0 };

beforeAll(async () => {
  services = await startTestServices({ services: [createStorageService({ env: {} }), photoService] });
  bus = services.platform.bus;
  db = services.openDatabase(PrismaClient, 'photo');
  gateway = services.client(PhotoServiceClient, { as: 'gateway', deadlineMs: 30_000 });
  moderation = services.client(PhotoServiceClient, { as: 'moderation', deadlineMs: 30_000 });
  stats = services.client(PhotoServiceClient, { as: 'stats', deadlineMs: 30_000 });

  const bytes = await jpeg();
  const upload = async (caller: Caller): Promise<number> => {
    const stream = gateway.clientStream('uploadPhoto', { caller, deadlineMs: 60_000 });
    await stream.send({ part: { $case: 'metadata', value: { originalName: 'crack.jpg', mimeType: 'image/jpeg' } } });
    for (const chunk of chunksOf(bytes, 16 * 1024)) await stream.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
    return (await stream.finish()).photo!.id;
  };
  const review = (id: number, to: PhotoStatus) =>
    moderation.call.setPhotoStatus({ id, status: to, actionId: `review-${id}`, ...(to === PhotoStatus.PHOTO_STATUS_REJECTED ? { rejectionReason: 'Not a crack' } : {}) }, { caller: admin });

  photo.approved = await upload(ada);
  photo.rejected = await upload(ada);
  photo.pending = await upload(bob);
  photo.held = await upload(ada);
  photo.another = await upload(bob);
  await review(photo.approved, PhotoStatus.PHOTO_STATUS_APPROVED);
  await review(photo.rejected, PhotoStatus.PHOTO_STATUS_REJECTED);
  await review(photo.held, PhotoStatus.PHOTO_STATUS_APPROVED);
  await review(photo.another, PhotoStatus.PHOTO_STATUS_APPROVED);
  await bus.publish(
    makeEvent(
      'auth.user.updated',
      UserUpdated,
      { user: { id: ada.userId, firstName: 'Ada', lastName: 'Lovelace', displayName: 'Ada L.' }, isAdmin: false, isEnabled: true, hasAcceptedTerms: true, updatedAt: new Date() },
      { source: 'auth' },
    ),
  );
  // Votes as the vote service reports them (the ratings consumer records totals and raters): the totals' version
  // orders them, and a vote that stops counting carries no voter.
  const vote = (photoId: number, userId: string, rating: number, voteCount: number, ratingSum: number, version: number) =>
    bus.publish(makeEvent('vote.vote.cast', VoteCast, { photoId, userId, rating, voteCount, ratingSum, version }, { source: 'vote' }));
  await vote(photo.approved, 'bob', 4, 1, 4, 1);
  await vote(photo.approved, 'cy', 2, 2, 6, 2);
  await vote(photo.held, 'bob', 5, 1, 5, 1);
  await vote(photo.another, 'cy', 3, 1, 3, 1);
  await vote(photo.another, '', 0, 0, 0, 2); // cy's vote voided: the totals go back, cy stays a rater
  // Held back for review after its votes: pending again, its totals kept.
  await moderation.call.holdPhotoForReview({ id: photo.held, actionId: 'hold-1' }, { caller: null });
}, 120_000);
afterAll(() => services?.stop());

async function pages(client = gateway): Promise<StreamFeedEntriesResponse[]> {
  const answered: StreamFeedEntriesResponse[] = [];
  for await (const page of client.serverStream('streamFeedEntries', {}, { caller: null })) answered.push(page);
  return answered;
}

const PHOTO_EVENTS = ['photo.photo.uploaded', 'photo.photo.status_changed', 'photo.photo.updated', 'photo.photo.deleted'] as const;

/** Each photo's state as its last event carried it. */
async function lastEventStates(): Promise<Map<number, PhotoState>> {
  const states = new Map<number, PhotoState>();
  for (const envelope of await outboxEvents(db.prisma, 'photo')) {
    if (!(PHOTO_EVENTS as readonly string[]).includes(envelope.type)) continue;
    const state = decodeEventOfType(envelope, PHOTO_EVENTS).payload.photo!;
    states.set(state.photoId, state);
  }
  return states;
}

describe('the personal feed’s RPCs', () => {
  it('streams every photo, at every status, with its state as its last event carried it and its rating totals', async () => {
    const answered = await pages();
    expect(answered).toHaveLength(1);
    const entries = answered[0]!.entries;
    const ids = Object.values(photo).sort((a, b) => a - b);
    expect(entries.map((e) => e.photoId)).toEqual(ids);

    const states = await lastEventStates();
    for (const entry of entries) {
      const state = states.get(entry.photoId)!;
      expect(entry, `photo ${entry.photoId}`).toMatchObject({ userId: state.userId, status: state.status, version: state.version, approvedAt: state.approvedAt });
    }
    const byId = new Map(entries.map((e) => [e.photoId, e]));
    const totals = (e: FeedEntry) => ({ status: e.status, voteCount: e.voteCount, ratingSum: e.ratingSum, ratingVersion: e.ratingVersion });
    expect(totals(byId.get(photo.approved)!)).toEqual({ status: PhotoStatus.PHOTO_STATUS_APPROVED, voteCount: 2, ratingSum: 6, ratingVersion: 2 });
    expect(totals(byId.get(photo.rejected)!)).toEqual({ status: PhotoStatus.PHOTO_STATUS_REJECTED, voteCount: 0, ratingSum: 0, ratingVersion: 0 });
    expect(totals(byId.get(photo.pending)!)).toEqual({ status: PhotoStatus.PHOTO_STATUS_PENDING, voteCount: 0, ratingSum: 0, ratingVersion: 0 });
    expect(totals(byId.get(photo.held)!)).toEqual({ status: PhotoStatus.PHOTO_STATUS_PENDING, voteCount: 1, ratingSum: 5, ratingVersion: 1 });
    expect(totals(byId.get(photo.another)!)).toEqual({ status: PhotoStatus.PHOTO_STATUS_APPROVED, voteCount: 0, ratingSum: 0, ratingVersion: 2 });
    // Approved, rejected and held: each changed since its upload, and the entry carries the version of that change.
    expect(byId.get(photo.approved)).toMatchObject({ version: 2, approvedAt: expect.any(Date) });
    expect(byId.get(photo.pending)).toMatchObject({ version: 1, approvedAt: undefined });
    expect(byId.get(photo.held)!.version).toBe(3);
  });

  it('lists exactly the photos a member has rated, at any status, a voided vote’s included', async () => {
    const rated = async (userId: string) => (await gateway.call.listRatedPhotos({ userId }, { caller: null })).photoIds.sort((a, b) => a - b);
    expect(await rated('bob')).toEqual([photo.approved, photo.held].sort((a, b) => a - b));
    expect(await rated('cy')).toEqual([photo.approved, photo.another].sort((a, b) => a - b));
    expect(await rated('ada')).toEqual([]);
    expect(await callError(gateway.call.listRatedPhotos({ userId: '' }, { caller: null }))).toMatchObject({ code: status.INVALID_ARGUMENT });

    // A member who has rated a great many photos gets every id in one answer.
    await db.pool.query(`INSERT INTO "photo"."photo_raters" ("user_id", "photo_id") SELECT 'keen', i FROM generate_series(100001, 130000) i`);
    const many = await rated('keen');
    expect(many).toHaveLength(30_000);
    expect([many[0], many.at(-1)]).toEqual([100_001, 130_000]);
  });

  it('answers the cards of the approved photos among the ids, in the order asked, as the gallery shows them', async () => {
    const asked = [photo.another, photo.pending, 999_999, photo.approved, photo.rejected, photo.held];
    const { photos } = await gateway.call.getGalleryCards({ ids: asked }, { caller: null });
    expect(photos.map((p) => p.id)).toEqual([photo.another, photo.approved]);

    // The very cards a gallery page carries: uploader, average, votes, image version and size included.
    const { photos: page } = await gateway.call.getGalleryPage({ filter: GalleryFilter.GALLERY_FILTER_ALL_SNAPS, page: { page: 1, limit: 20 } }, { caller: null });
    const onPage = new Map(page.map((p) => [p.id, p]));
    expect(photos).toEqual([onPage.get(photo.another), onPage.get(photo.approved)]);
    expect(photos[1]).toMatchObject({
      userId: ada.userId,
      status: PhotoStatus.PHOTO_STATUS_APPROVED,
      averageRating: 3,
      voteCount: 2,
      imageVersion: 1,
      width: expect.any(Number),
      height: expect.any(Number),
      user: { id: ada.userId, firstName: 'Ada', lastName: 'Lovelace', displayName: 'Ada L.' },
    });
    expect(photos[1]!.width).toBeGreaterThan(0);

    expect((await gateway.call.getGalleryCards({ ids: [] }, { caller: null })).photos).toEqual([]);
    const hundred = Array.from({ length: MAX_GALLERY_CARDS }, (_, i) => (i === 50 ? photo.approved : 1_000_000 + i));
    expect((await gateway.call.getGalleryCards({ ids: hundred }, { caller: null })).photos.map((p) => p.id)).toEqual([photo.approved]);
    expect(await callError(gateway.call.getGalleryCards({ ids: [...hundred, photo.another] }, { caller: null }))).toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  it('answers the gateway only', async () => {
    const first = async (stream: AsyncIterable<unknown>) => {
      for await (const page of stream) return page;
      return undefined;
    };
    // Another service, on no one's behalf or forwarding a user (an admin, even).
    for (const [client, caller] of [
      [stats, null],
      [moderation, admin],
      [moderation, ada],
    ] as const) {
      await expect(first(client.serverStream('streamFeedEntries', {}, { caller }))).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
      expect(await callError(client.call.listRatedPhotos({ userId: 'bob' }, { caller }))).toMatchObject({ code: status.PERMISSION_DENIED });
      expect(await callError(client.call.getGalleryCards({ ids: [photo.approved] }, { caller }))).toMatchObject({ code: status.PERMISSION_DENIED });
    }
  });

  it('streams pages of 500 in ascending id order, the last one short, however many photos there are', async () => {
    await db.pool.query(
      `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "reviewed_at", "updated_at")
       SELECT 'bulk' || (i % 7), md5(i::text) || '.webp', 'a.jpg', 'image/jpeg', 1,
              (ARRAY['pending', 'approved', 'rejected'])[1 + i % 3]::"photo"."PhotoStatus",
              CASE WHEN i % 3 = 1 THEN now() END, CASE WHEN i % 3 <> 0 THEN now() END, now()
       FROM generate_series(1, 1200) i`,
    );
    const { rows } = await db.pool.query<{ id: number; status: string }>(`SELECT "id", "status"::text AS "status" FROM "photo"."photos" ORDER BY "id"`);
    expect(rows).toHaveLength(1205);

    const answered = await pages();
    expect(answered.map((p) => p.entries.length)).toEqual([500, 500, 205]);
    const entries = answered.flatMap((p) => p.entries);
    expect(entries.map((e) => e.photoId)).toEqual(rows.map((r) => r.id));
    const STATUS: Record<string, PhotoStatus> = {
      pending: PhotoStatus.PHOTO_STATUS_PENDING,
      approved: PhotoStatus.PHOTO_STATUS_APPROVED,
      rejected: PhotoStatus.PHOTO_STATUS_REJECTED,
    };
    expect(entries.map((e) => e.status)).toEqual(rows.map((r) => STATUS[r.status]));
    expect(entries.filter((e) => e.status === PhotoStatus.PHOTO_STATUS_APPROVED).every((e) => e.approvedAt instanceof Date)).toBe(true);
  });
});
