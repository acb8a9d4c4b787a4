import { beforeEach, describe, expect, it } from 'vitest';
import { RATERS } from '@snapcracks/http-contract';
import { decodeEvent, decodeEventOfType, makeEvent, type Caller, type DomainErrorKind } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoMilestonesReached, PhotoStatusChanged, PhotoUploaded, VoteCast, VoteMilestone, type PhotoState } from '@snapcracks/proto/events/v1';
import { OWN_PHOTO, PHOTO_NOT_FOUND, RATING_INVALID, VoteService } from './vote.service.js';
import { InMemoryVoteRepository } from './testing/in-memory-vote.repository.js';
import { VOTABLE_PHOTO_EVENTS, applyVotablePhotoEvent } from './consumers/votable-photos.consumer.js';

const owner: Caller = { userId: 'owner', isAdmin: false, hasAcceptedTerms: true };
const ada: Caller = { userId: 'ada', isAdmin: false, hasAcceptedTerms: true };
const bob: Caller = { userId: 'bob', isAdmin: false, hasAcceptedTerms: true };

let votes: InMemoryVoteRepository;
let service: VoteService;

beforeEach(() => {
  votes = new InMemoryVoteRepository();
  service = new VoteService(votes);
});

const kind = (k: DomainErrorKind, message?: string) => expect.objectContaining({ kind: k, ...(message ? { message } : {}) });

const state = (photoId: number, photoStatus: PhotoStatus, version: number): PhotoState => ({
  photoId,
  userId: owner.userId,
  filename: `${photoId}.webp`,
  status: photoStatus,
  createdAt: new Date(0),
  version,
});
const uploaded = (photoId: number, version = 1) => makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: state(photoId, PhotoStatus.PHOTO_STATUS_PENDING, version) }, { source: 'photo' });
const reviewed = (photoId: number, to: PhotoStatus, version = 2) =>
  makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo: state(photoId, to, version), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedAt: new Date(), actionId: 'a' }, { source: 'photo' });
const deleted = (photoId: number, version = 3) => makeEvent('photo.photo.deleted', PhotoDeleted, { photo: state(photoId, PhotoStatus.PHOTO_STATUS_APPROVED, version), deletedAt: new Date() }, { source: 'photo' });
const apply = (...events: ReturnType<typeof uploaded>[]) => events.reduce((done, e) => done.then(() => applyVotablePhotoEvent(decodeEventOfType(e, VOTABLE_PHOTO_EVENTS), votes.votablePhotos)), Promise.resolve());
const approve = (photoId: number) => apply(uploaded(photoId), reviewed(photoId, PhotoStatus.PHOTO_STATUS_APPROVED));

describe('casting a vote', () => {
  beforeEach(() => approve(1));

  it('stores a first vote and answers the photo’s new average and count, with an event carrying the absolute totals', async () => {
    expect(await service.cast(ada, 1, 4)).toEqual({ rating: 4, averageRating: 4, voteCount: 1 });
    expect(await service.cast(bob, 1, 1)).toEqual({ rating: 1, averageRating: 2.5, voteCount: 2 });
    const casts = votes.events.filter((e) => e.type === 'vote.vote.cast').map((e) => decodeEvent(e, VoteCast));
    expect(casts).toEqual([
      { photoId: 1, userId: 'ada', rating: 4, previousRating: undefined, voteCount: 1, ratingSum: 4, version: 1 },
      { photoId: 1, userId: 'bob', rating: 1, previousRating: undefined, voteCount: 2, ratingSum: 5, version: 2 },
    ]);
    expect(votes.events.map((e) => e.source)).toEqual(['vote', 'vote', 'vote']);
  });

  it('reports the milestones a vote reached beside its cast, and none for the votes that reach none', async () => {
    await service.cast(ada, 1, 5);
    await service.cast(bob, 1, 3);
    await service.cast(ada, 1, 4);
    expect(votes.events.map((e) => e.type)).toEqual(['vote.vote.cast', 'vote.photo.milestones_reached', 'vote.vote.cast', 'vote.vote.cast']);
    expect(decodeEvent(votes.events[1]!, PhotoMilestonesReached)).toEqual({
      photoId: 1,
      voterId: 'ada',
      milestones: [VoteMilestone.VOTE_MILESTONE_FIRST_VOTE],
      voteCount: 1,
      ratingSum: 5,
    });
  });

  it('changes a member’s vote instead of adding one', async () => {
    await service.cast(ada, 1, 2);
    expect(await service.cast(ada, 1, 5)).toEqual({ rating: 5, averageRating: 5, voteCount: 1 });
    expect(await service.myVote(ada, 1)).toBe(5);
    expect(decodeEvent(votes.events.at(-1)!, VoteCast)).toMatchObject({ rating: 5, previousRating: 2, voteCount: 1, ratingSum: 5, version: 2 });
  });

  it.each([0, 6, -1, 3.5, Number.NaN, Infinity])('refuses the rating %s', async (rating) => {
    await expect(service.cast(ada, 1, rating)).rejects.toEqual(kind('invalid_argument', RATING_INVALID));
    expect(votes.events).toEqual([]);
  });

  it('answers Photo not found for pending, rejected, deleted and unknown photos', async () => {
    await apply(uploaded(2), uploaded(3), reviewed(3, PhotoStatus.PHOTO_STATUS_REJECTED));
    await approve(4);
    await apply(deleted(4));
    for (const photoId of [2, 3, 4, 99, 0, -1]) await expect(service.cast(ada, photoId, 5)).rejects.toEqual(kind('not_found', PHOTO_NOT_FOUND));
    expect(votes.events).toEqual([]);
  });

  it('refuses a vote on one’s own photo, with a clear message', async () => {
    await expect(service.cast(owner, 1, 5)).rejects.toEqual(kind('permission_denied', OWN_PHOTO));
    expect(votes.events).toEqual([]);
  });

  it('refuses to change a vote that was set aside, saying so, and changes nothing', async () => {
    await service.cast(ada, 1, 2);
    votes.setAside.add('1|ada');
    const before = { events: votes.events.length, totals: await votes.totals(1) };
    await expect(service.cast(ada, 1, 5)).rejects.toEqual(kind('failed_precondition', RATERS.voided));
    expect({ events: votes.events.length, totals: await votes.totals(1) }).toEqual(before);
    expect(await service.myVote(ada, 1)).toBe(2);
  });
});

describe('the caller’s vote', () => {
  it('is null until they vote', async () => {
    await approve(1);
    expect(await service.myVote(ada, 1)).toBeNull();
    await service.cast(ada, 1, 3);
    expect(await service.myVote(ada, 1)).toBe(3);
    expect(await service.myVote(bob, 1)).toBeNull();
    expect(await service.myVote(ada, 0)).toBeNull();
  });
});

describe('the votable photos projection', () => {
  it('keeps the newest state whatever order the photo events arrive in', async () => {
    await apply(reviewed(1, PhotoStatus.PHOTO_STATUS_APPROVED), uploaded(1));
    expect(await votes.findVotable(1)).toEqual({ photoId: 1, ownerId: 'owner', approved: true, deleted: false, version: 2 });
    expect(await service.cast(ada, 1, 5)).toMatchObject({ voteCount: 1 });
  });

  it('drops a deleted photo’s votes, and a late event does not bring the photo back', async () => {
    await approve(1);
    await service.cast(ada, 1, 5);
    await apply(deleted(1), reviewed(1, PhotoStatus.PHOTO_STATUS_APPROVED), uploaded(1));
    expect(await votes.findVotable(1)).toMatchObject({ approved: false, deleted: true, version: 3 });
    expect(await votes.totals(1)).toBeNull();
    expect(await service.myVote(ada, 1)).toBeNull();
    await expect(service.cast(bob, 1, 5)).rejects.toEqual(kind('not_found'));
    // Only ada's vote and its first-vote milestone.
    expect(votes.events.map((e) => e.type)).toEqual(['vote.vote.cast', 'vote.photo.milestones_reached']);
  });
});
