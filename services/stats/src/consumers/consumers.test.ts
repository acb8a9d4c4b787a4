import { describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent, type Envelope } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoStatusChanged, PhotoUploaded, VoteCast } from '@snapcracks/proto/events/v1';
import { cast, photoState, reviewed, uploaded, userDeleted } from '../testing/events.js';
import { randomHistories, shuffledDeliveries, type PhotoHistory } from '../testing/histories.js';
import { InMemoryProjectionStore } from '../testing/in-memory-projection.store.js';
import { PHOTO_EVENTS, applyPhotoEvent } from './photos.consumer.js';
import { VOTE_EVENTS, applyVoteEvent } from './votes.consumer.js';
import { USER_EVENTS, applyUserEvent } from './users.consumer.js';

/** Applies an event as the matching consumer would, without the kit's deduplication by id. */
async function apply(store: InMemoryProjectionStore, event: Envelope): Promise<void> {
  if ((PHOTO_EVENTS as readonly string[]).includes(event.type)) return applyPhotoEvent(decodeEventOfType(event, PHOTO_EVENTS), store);
  if ((VOTE_EVENTS as readonly string[]).includes(event.type)) return applyVoteEvent(decodeEventOfType(event, VOTE_EVENTS), store);
  return applyUserEvent(decodeEventOfType(event, USER_EVENTS), store);
}

const APPROVED = PhotoStatus.PHOTO_STATUS_APPROVED;
const STATUS_NAMES: Partial<Record<PhotoStatus, string>> = { [PhotoStatus.PHOTO_STATUS_PENDING]: 'pending', [APPROVED]: 'approved', [PhotoStatus.PHOTO_STATUS_REJECTED]: 'rejected' };

/** The row a photo's final state calls for (a tombstone takes no review decision that arrives after the deletion). */
const finalRowOf = ({ ownerId, final }: PhotoHistory) => ({
  ownerId,
  status: STATUS_NAMES[final.status],
  deleted: final.deleted,
  voteCount: final.voteCount,
  ratingSum: final.ratingSum,
  ...(final.deleted ? {} : { reviewedAt: final.reviewedAt }),
});

describe('the stats consumers', () => {
  it('ignore events they cannot place: no photo, owner, status or version, or vote totals', async () => {
    const store = new InMemoryProjectionStore();
    const photo = photoState({ photoId: 1, ownerId: 'ada', status: PhotoStatus.PHOTO_STATUS_PENDING, version: 1 });
    for (const bad of [{ ...photo, photoId: 0 }, { ...photo, userId: '' }, { ...photo, status: PhotoStatus.PHOTO_STATUS_UNSPECIFIED }, { ...photo, version: 0 }, undefined]) {
      await apply(store, makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: bad }, { source: 'photo' }));
    }
    await apply(store, makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'u', rating: 5 }, { source: 'vote' }));
    expect(store.photos.size).toBe(0);
  });

  it('take a status change without its time as a plain state', async () => {
    const store = new InMemoryProjectionStore();
    const photo = photoState({ photoId: 1, ownerId: 'ada', status: APPROVED, version: 2 });
    await apply(store, makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo, previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, actionId: 'a' }, { source: 'photo' }));
    expect(store.photos.get(1)).toMatchObject({ status: 'approved', reviewedAt: null, reviewVersion: 0 });
  });

  it('keep totals that overtook the photo in a row of unknown status, and the photo’s state beside them once it comes', async () => {
    const store = new InMemoryProjectionStore();
    await apply(store, cast(1, { voteCount: 2, ratingSum: 9, version: 2 }));
    expect(store.photos.get(1)).toMatchObject({ status: null, voteCount: 2, ratingSum: 9, ratingVersion: 2 });
    await apply(store, reviewed({ photoId: 1, ownerId: 'ada', status: APPROVED, version: 2 }, new Date()));
    expect(store.photos.get(1)).toMatchObject({ ownerId: 'ada', status: 'approved', version: 2, voteCount: 2, ratingSum: 9 });
    await apply(store, uploaded({ photoId: 1, ownerId: 'ada' }));
    expect(store.photos.get(1)).toMatchObject({ status: 'approved', version: 2 });
  });

  it('mark a deleted account', async () => {
    const store = new InMemoryProjectionStore();
    await apply(store, userDeleted('ada'));
    expect([...store.deletedOwners]).toEqual(['ada']);
  });

  // The rules alone are order-safe and idempotent: even without the kit's deduplication by event id, any order and
  // any repeats leave every row as the final state calls for (what the rows count for is tested on PostgreSQL).
  it('reach the final states whatever the order and repeats of events, for many random histories', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      let state = seed;
      const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
      const histories = randomHistories(random, { photos: 40, owners: 6, firstPhotoId: 1 });
      const store = new InMemoryProjectionStore();
      for (const event of shuffledDeliveries(random, histories, { repeatShare: 0.3 })) await apply(store, event);
      for (const history of histories) expect(store.photos.get(history.photoId), `seed ${seed}, photo ${history.photoId}`).toMatchObject(finalRowOf(history));
    }
  });

  // Star moves are differences, so they rely on the kit handling each event once (processed_events); given that, any
  // order gives every photo's final votes per star, changed votes included.
  it('reach each photo’s final votes per star in any order, each event handled once', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      let state = seed;
      const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
      const histories = randomHistories(random, { photos: 30, owners: 4, firstPhotoId: 1 });
      const store = new InMemoryProjectionStore();
      const handled = new Set<string>();
      for (const event of shuffledDeliveries(random, histories, { repeatShare: 0.3 })) {
        if (handled.has(event.id)) continue;
        handled.add(event.id);
        await apply(store, event);
      }
      for (const h of histories.filter((h) => h.final.voteCount > 0)) expect(store.stars.get(h.photoId)?.stars, `seed ${seed}, photo ${h.photoId}`).toEqual(h.final.stars);
    }
  });
});

