import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryEventBus, makeEvent, type EventBus } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoStatusChanged, UserUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import type { FeedEntry, Photo } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { PersonalFeed } from './personal-feed.js';

const APPROVED = PhotoStatus.PHOTO_STATUS_APPROVED;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute));

/** A photo service that answers from `entries` and counts what it is asked. */
function fakePhotoService(entries: FeedEntry[], rated: Record<string, number[]>) {
  const asked = { stream: 0, rated: 0, cards: [] as number[][] };
  const card = (id: number): Photo => ({ id, userId: entries.find((e) => e.photoId === id)?.userId ?? 'bob', filename: `${id}.webp`, voteCount: 0, averageRating: 0, imageVersion: 1 }) as Photo;
  const photo = {
    async *serverStream() {
      asked.stream += 1;
      yield { entries };
    },
    call: {
      listRatedPhotos: async ({ userId }: { userId: string }) => ((asked.rated += 1), { photoIds: rated[userId] ?? [] }),
      getGalleryCards: async ({ ids }: { ids: number[] }) => (asked.cards.push(ids), { photos: ids.map(card) }),
    },
  };
  return { clients: { photo } as unknown as Pick<Clients, 'photo'>, asked };
}

const entry = (photoId: number, userId: string, minute: number, voteCount = 0): FeedEntry => ({
  photoId,
  userId,
  status: APPROVED,
  approvedAt: at(minute),
  version: 2,
  voteCount,
  ratingSum: voteCount * 4,
  ratingVersion: voteCount,
});

let bus: EventBus;
let feed: PersonalFeed;
afterEach(async () => {
  await feed?.close();
  await bus?.close();
});

async function started(entries: FeedEntry[], rated: Record<string, number[]> = {}) {
  bus = createMemoryEventBus();
  const service = fakePhotoService(entries, rated);
  feed = new PersonalFeed({ clients: service.clients, settleMs: 10 });
  await feed.listen(bus);
  await vi.waitFor(() => expect(feed.isReady).toBe(true));
  return service.asked;
}

describe('PersonalFeed', () => {
  it('answers pages from memory: after the member and the cards are kept, no call at all', async () => {
    const asked = await started([entry(1, 'ann', 1), entry(2, 'bob', 2), entry(3, 'bob', 3, 2), entry(4, 'cy', 4)], { ann: [4] });
    const first = await feed.page('ann', 1, 9);
    expect(first).toMatchObject({ total: 2, totalPages: 1 });
    expect(first!.photos.map((p) => [p.id, p.voteCount, p.averageRating])).toEqual([
      [2, 0, 0],
      [3, 2, 4],
    ]);
    expect(asked).toEqual({ stream: 1, rated: 1, cards: [[2, 3]] });
    await feed.page('ann', 1, 9);
    expect(asked).toEqual({ stream: 1, rated: 1, cards: [[2, 3]] });
  });

  it('follows events: a vote moves a photo and updates its card, a member’s vote leaves it out, an approval adds one', async () => {
    await started([entry(1, 'ann', 1), entry(2, 'bob', 2), entry(3, 'cy', 3)]);
    expect((await feed.page('dee', 1, 9))!.photos.map((p) => p.id)).toEqual([3, 2, 1]);
    await bus.publish(makeEvent('vote.vote.cast', VoteCast, { photoId: 3, userId: 'eve', rating: 5, voteCount: 1, ratingSum: 5, version: 1 }, { source: 'vote' }));
    await bus.publish(makeEvent('vote.vote.cast', VoteCast, { photoId: 2, userId: 'dee', rating: 2, voteCount: 1, ratingSum: 2, version: 1 }, { source: 'vote' }));
    await vi.waitFor(async () => {
      const page = (await feed.page('dee', 1, 9))!;
      expect(page.photos.map((p) => [p.id, p.voteCount, p.averageRating])).toEqual([
        [1, 0, 0],
        [3, 1, 5],
      ]);
      expect(page.total).toBe(2);
    });
    const approved = { photoId: 9, userId: 'bob', filename: '9.webp', status: APPROVED, approvedAt: at(9), version: 2 };
    await bus.publish(
      makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo: approved, previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedAt: at(9), actionId: 'a' }, { source: 'photo' }),
    );
    await vi.waitFor(async () => expect((await feed.page('dee', 1, 9))!.photos.map((p) => p.id)).toEqual([9, 1, 3]));
  });

  it('leaves a photo out at once when this replica cast the member’s vote', async () => {
    await started([entry(1, 'ann', 1), entry(2, 'bob', 2)]);
    expect((await feed.page('dee', 1, 9))!.total).toBe(2);
    feed.noteVote('dee', 2);
    expect((await feed.page('dee', 1, 9))!.photos.map((p) => p.id)).toEqual([1]);
  });

  it('forgets an uploader’s cards when their name changes, and loads them again', async () => {
    const asked = await started([entry(1, 'ann', 1), entry(2, 'bob', 2)]);
    await feed.page('dee', 1, 9);
    await bus.publish(makeEvent('auth.user.updated', UserUpdated, { user: { id: 'bob', displayName: 'Robert' }, isAdmin: false, isEnabled: true, hasAcceptedTerms: true }, { source: 'auth' }));
    await vi.waitFor(async () => {
      await feed.page('dee', 1, 9);
      expect(asked.cards).toContainEqual([2]);
    });
  });

  it('leaves the page to the photo service when it cannot have the member’s ratings', async () => {
    bus = createMemoryEventBus();
    const service = fakePhotoService([entry(1, 'ann', 1)], {});
    service.clients.photo.call.listRatedPhotos = (async () => Promise.reject(new Error('unavailable'))) as never;
    feed = new PersonalFeed({ clients: service.clients });
    await feed.listen(bus);
    await vi.waitFor(() => expect(feed.isReady).toBe(true));
    expect(await feed.page('dee', 1, 9)).toBeUndefined();
  });

  it('loads its order again after reloadMs, and counts the member’s total against the new one', async () => {
    bus = createMemoryEventBus();
    const entries = [entry(1, 'ann', 1), entry(2, 'bob', 2)];
    const service = fakePhotoService(entries, { dee: [1] });
    feed = new PersonalFeed({ clients: service.clients, reloadMs: 50 });
    await feed.listen(bus);
    await vi.waitFor(() => expect(feed.isReady).toBe(true));
    expect(await feed.page('dee', 1, 9)).toMatchObject({ total: 1 });
    // A photo approved while an event was missed: the next load has it.
    entries.push(entry(3, 'cy', 3));
    await vi.waitFor(async () => expect(await feed.page('dee', 1, 9)).toMatchObject({ total: 2 }));
    expect(service.asked.stream).toBeGreaterThanOrEqual(2);
  });

  it('answers nothing until its order is loaded, so that the route asks the photo service', async () => {
    bus = createMemoryEventBus();
    feed = new PersonalFeed({ clients: fakePhotoService([], {}).clients });
    expect(await feed.page('dee', 1, 9)).toBeUndefined();
  });
});
