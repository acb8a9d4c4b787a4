import { FailedPreconditionError, InvalidArgumentError, NotFoundError, PermissionDeniedError, makeEvent, type Caller } from '@snapcracks/kit';
import { RATERS, RATING, REFUSALS } from '@snapcracks/http-contract';
import { PhotoMilestonesReached, VoteCast, type Envelope } from '@snapcracks/proto/events/v1';
import { milestonesReached } from './milestones.js';
import type { CastResult, EventsOf, VoteRepository, VoterVote } from './vote.repository.js';

export const RATING_INVALID = RATING.invalid;
export const PHOTO_NOT_FOUND = 'Photo not found';
export const OWN_PHOTO = REFUSALS.ownPhotoVote;
const SOURCE = 'vote';

/** The answer to a vote: the rating stored and the photo's totals after it. */
export interface VoteOutcome {
  rating: number;
  averageRating: number;
  voteCount: number;
}

/**
 * Vote rules: who may rate which photo and what a rating may be. It decides; the repository stores the vote, the
 * photo's totals and the event in one transaction. Callers are members (the gRPC edge checks signed-in and terms).
 */
export class VoteService {
  constructor(private readonly votes: VoteRepository) {}

  async cast(caller: Caller, photoId: number, rating: number): Promise<VoteOutcome> {
    if (!Number.isInteger(rating) || rating < RATING.min || rating > RATING.max) throw new InvalidArgumentError(RATING_INVALID);
    if (!isPhotoId(photoId)) throw new NotFoundError(PHOTO_NOT_FOUND);
    // The hot path asks once: the repository stores the vote only while the photo is approved, not deleted and not
    // the voter's own (checked under a lock, so a deletion meanwhile cannot leave a stray vote). Only a refused vote
    // looks at the photo, to say why.
    const cast = await this.votes.cast({ photoId, userId: caller.userId, rating }, voteEvents);
    if (!cast) {
      const photo = await this.votes.findVotable(photoId);
      if (photo?.approved && !photo.deleted && photo.ownerId === caller.userId) throw new PermissionDeniedError(OWN_PHOTO);
      if (photo?.approved && !photo.deleted && (await this.votes.isSetAside(photoId, caller.userId))) throw new FailedPreconditionError(RATERS.voided);
      // Pending, rejected, deleted and unknown photos look alike: their existence is not revealed.
      throw new NotFoundError(PHOTO_NOT_FOUND);
    }
    const { voteCount, ratingSum } = cast.totals;
    return { rating: cast.rating, averageRating: voteCount > 0 ? ratingSum / voteCount : 0, voteCount };
  }

  /** Every vote of the caller, newest first, each saying whether it counts. */
  mine(caller: Caller): Promise<VoterVote[]> {
    return this.votes.listByVoter(caller.userId);
  }

  /** The caller's rating of the photo, or null when they have not rated it. */
  async myVote(caller: Caller, photoId: number): Promise<number | null> {
    if (!isPhotoId(photoId)) return null;
    return this.votes.findRating(photoId, caller.userId);
  }
}

function isPhotoId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}

/** vote.vote.cast: the vote and the photo's absolute totals after it, ordered by the totals' version. */
const voteCastEvent = (cast: CastResult): Envelope =>
  makeEvent(
    'vote.vote.cast',
    VoteCast,
    {
      photoId: cast.photoId,
      userId: cast.userId,
      rating: cast.rating,
      previousRating: cast.previousRating ?? undefined,
      voteCount: cast.totals.voteCount,
      ratingSum: cast.totals.ratingSum,
      version: cast.totals.version,
    },
    { source: SOURCE },
  );

/** A member's vote's events: its vote.vote.cast, and vote.photo.milestones_reached when it reached any. */
export const voteEvents: EventsOf = (cast) => {
  const milestones = milestonesReached(cast);
  if (milestones.length === 0) return [voteCastEvent(cast)];
  const { photoId, userId, totals } = cast;
  const reached = { photoId, voterId: userId, milestones, voteCount: totals.voteCount, ratingSum: totals.ratingSum };
  return [voteCastEvent(cast), makeEvent('vote.photo.milestones_reached', PhotoMilestonesReached, reached, { source: SOURCE })];
};
