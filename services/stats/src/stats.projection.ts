/**
 * The projection's rules, free of I/O: how an event's state merges into a photo's row (each side kept by its own
 * version), what a row contributes to the community's figures, and how a change of a row moves them. The consumers
 * apply these inside their transaction; the repository only stores the results.
 */

export type PhotoStatus = 'pending' | 'approved' | 'rejected';

/** What stats knows of one photo (the `photos` table). */
export interface PhotoRow {
  photoId: number;
  /** Null until a photo event arrives. */
  ownerId: string | null;
  /** Null until a photo event arrives: only vote totals are known. */
  status: PhotoStatus | null;
  filename: string | null;
  description: string | null;
  createdAt: Date | null;
  approvedAt: Date | null;
  /** When the review decision was taken (photo.photo.status_changed's changed_at). */
  reviewedAt: Date | null;
  /** The photo version of the status change `reviewedAt` comes from. */
  reviewVersion: number;
  /** PhotoState.version of the stored state; 0 while no photo event has arrived. */
  version: number;
  /** A tombstone: the photo is gone; nothing brings it back. */
  deleted: boolean;
  voteCount: number;
  ratingSum: number;
  /** The vote service's version of the totals. */
  ratingVersion: number;
}

/** A photo nothing is known of yet. */
export function unknownPhoto(photoId: number): PhotoRow {
  return {
    photoId,
    ownerId: null,
    status: null,
    filename: null,
    description: null,
    createdAt: null,
    approvedAt: null,
    reviewedAt: null,
    reviewVersion: 0,
    version: 0,
    deleted: false,
    voteCount: 0,
    ratingSum: 0,
    ratingVersion: 0,
  };
}

/** A photo's state as an event carries it (PhotoState). */
export interface PhotoStateFacts {
  ownerId: string;
  status: PhotoStatus;
  filename: string;
  description: string | null;
  createdAt: Date | null;
  approvedAt: Date | null;
  version: number;
}

export type PhotoChange =
  | { kind: 'state'; state: PhotoStateFacts }
  /** A review decision: the state after it, and when it was taken. */
  | { kind: 'reviewed'; state: PhotoStateFacts; reviewedAt: Date }
  | { kind: 'deleted'; state: PhotoStateFacts };

/**
 * The row after a photo event, or null when the event changes nothing (older than what is stored, a repeat, or about
 * a deleted photo).
 *  - A state replaces the stored one only when its version is newer.
 *  - A review decision's time is kept by its own version: the decision is the only event that carries it, and a newer
 *    state (an edit) may have overtaken it.
 *  - A deletion always wins (the photo service deletes the row, so nothing can follow it) and keeps the highest
 *    version; a deleted row never changes again, so a late event cannot bring the photo back.
 */
export function applyPhotoChange(row: PhotoRow, change: PhotoChange): PhotoRow | null {
  if (row.deleted) return null;
  const { state } = change;
  if (change.kind === 'deleted') return { ...row, ...stateColumns(state), version: Math.max(row.version, state.version), deleted: true };
  let next: PhotoRow | null = null;
  if (state.version > row.version) next = { ...row, ...stateColumns(state), version: state.version };
  if (change.kind === 'reviewed' && state.version > row.reviewVersion) {
    next = { ...(next ?? row), reviewedAt: change.reviewedAt, reviewVersion: state.version };
  }
  return next;
}

function stateColumns(state: PhotoStateFacts): Pick<PhotoRow, 'ownerId' | 'status' | 'filename' | 'description' | 'createdAt' | 'approvedAt'> {
  return {
    ownerId: state.ownerId,
    status: state.status,
    filename: state.filename,
    description: state.description,
    createdAt: state.createdAt,
    approvedAt: state.approvedAt,
  };
}

/** A photo's vote totals as vote.vote.cast reports them: absolute, with a version growing with every vote. */
export interface VoteTotals {
  voteCount: number;
  ratingSum: number;
  version: number;
}

/** The row with newer totals, or null when the stored ones are as new (a repeat, a late or overtaken event). */
export function applyVoteTotals(row: PhotoRow, totals: VoteTotals): PhotoRow | null {
  if (totals.version <= row.ratingVersion) return null;
  return { ...row, voteCount: totals.voteCount, ratingSum: totals.ratingSum, ratingVersion: totals.version };
}

/** The community's figures, as sums over photos (each a counter column in every shard). */
export interface Counters {
  photos: number;
  pendingPhotos: number;
  approvedPhotos: number;
  votesOnApproved: number;
  ratedFourOrHigher: number;
  /** Owners with at least one approved photo; moved by owners' counts, not by a single row. */
  distinctUploaders: number;
}

export const NO_COUNTERS: Counters = { photos: 0, pendingPhotos: 0, approvedPhotos: 0, votesOnApproved: 0, ratedFourOrHigher: 0, distinctUploaders: 0 };

/** Whether the photo counts among those rated four or higher: approved, voted on, average (sum / count) of 4 or more. */
export function isRatedFourOrHigher(row: Pick<PhotoRow, 'voteCount' | 'ratingSum'>): boolean {
  return row.voteCount > 0 && row.ratingSum >= 4 * row.voteCount;
}

/** What one row adds to the community's figures: nothing while its status is unknown or once it is deleted. */
export function contributionOf(row: PhotoRow): Omit<Counters, 'distinctUploaders'> {
  if (row.deleted || row.status === null) return { photos: 0, pendingPhotos: 0, approvedPhotos: 0, votesOnApproved: 0, ratedFourOrHigher: 0 };
  const approved = row.status === 'approved';
  return {
    photos: 1,
    pendingPhotos: row.status === 'pending' ? 1 : 0,
    approvedPhotos: approved ? 1 : 0,
    votesOnApproved: approved ? row.voteCount : 0,
    ratedFourOrHigher: approved && isRatedFourOrHigher(row) ? 1 : 0,
  };
}

/**
 * Counter rows are split in shards so that consumers working on different photos rarely wait on one row; a read sums
 * them. A photo always moves the shard of its id. Changing the number later is safe: a read sums every row.
 */
export const COUNTER_SHARDS = 16;

export const shardOf = (photoId: number): number => photoId % COUNTER_SHARDS;

/** What one photo adds to its owner's row (`owners`): an approved photo that is not deleted, with its votes. */
export interface OwnerFigures {
  approvedPhotos: number;
  /** Votes received on the owner's approved photos. */
  votes: number;
  /** Their ratings' sum: the owner's average is ratingSum / votes. */
  ratingSum: number;
}

export function ownerContributionOf(row: PhotoRow): OwnerFigures {
  if (row.deleted || row.status !== 'approved' || row.ownerId === null) return { approvedPhotos: 0, votes: 0, ratingSum: 0 };
  return { approvedPhotos: 1, votes: row.voteCount, ratingSum: row.ratingSum };
}

/** How one row's change moves the figures: the counters of its shard, and owners' figures. */
export interface RowChange {
  shard: number;
  /** Differences of the row's contribution (distinctUploaders is left to the owners' counts: 0 here). */
  counters: Counters;
  /** Differences of owners' figures, non-zero only, sorted by owner (the order rows are locked in). */
  owners: ({ ownerId: string } & OwnerFigures)[];
}

export function changeOf(before: PhotoRow, after: PhotoRow): RowChange {
  const was = contributionOf(before);
  const is = contributionOf(after);
  const counters: Counters = {
    photos: is.photos - was.photos,
    pendingPhotos: is.pendingPhotos - was.pendingPhotos,
    approvedPhotos: is.approvedPhotos - was.approvedPhotos,
    votesOnApproved: is.votesOnApproved - was.votesOnApproved,
    ratedFourOrHigher: is.ratedFourOrHigher - was.ratedFourOrHigher,
    distinctUploaders: 0,
  };
  // An owner never changes in practice (PhotoState.user_id is the uploader); both sides are kept apart anyway.
  const owners = new Map<string, OwnerFigures>();
  const move = (ownerId: string | null, figures: OwnerFigures, sign: 1 | -1) => {
    if (ownerId === null || figures.approvedPhotos === 0) return;
    const moved = owners.get(ownerId) ?? { approvedPhotos: 0, votes: 0, ratingSum: 0 };
    owners.set(ownerId, {
      approvedPhotos: moved.approvedPhotos + sign * figures.approvedPhotos,
      votes: moved.votes + sign * figures.votes,
      ratingSum: moved.ratingSum + sign * figures.ratingSum,
    });
  };
  move(before.ownerId, ownerContributionOf(before), -1);
  move(after.ownerId, ownerContributionOf(after), 1);
  return {
    shard: shardOf(after.photoId),
    counters,
    owners: [...owners]
      .filter(([, o]) => o.approvedPhotos !== 0 || o.votes !== 0 || o.ratingSum !== 0)
      .map(([ownerId, o]) => ({ ownerId, ...o }))
      .sort((a, b) => (a.ownerId < b.ownerId ? -1 : a.ownerId > b.ownerId ? 1 : 0)),
  };
}

/** Whether a change moves any figure (otherwise only the row is written). */
export function movesCounters(change: RowChange): boolean {
  return change.owners.length > 0 || Object.values(change.counters).some((delta) => delta !== 0);
}

/** Votes per rating: index 0 holds the 1-star votes, index 4 the 5-star ones. */
export type Stars = [number, number, number, number, number];

export const NO_STARS: Stars = [0, 0, 0, 0, 0];

const isRating = (rating: number | undefined): rating is number => rating !== undefined && Number.isInteger(rating) && rating >= 1 && rating <= 5;

/**
 * How one vote event moves its photo's star counts: +1 at the new rating, -1 at the one it replaced (a removed vote
 * has rating 0, so it only takes its previous rating away). Null when it moves nothing (a repeat of the same rating,
 * or no rating at all). Applied once per event, these moves commute, so the counts are exact in any order.
 */
export function starsMoveOf(rating: number | undefined, previousRating: number | undefined): Stars | null {
  const move: Stars = [...NO_STARS];
  if (isRating(rating)) move[rating - 1]! += 1;
  if (isRating(previousRating)) move[previousRating - 1]! -= 1;
  return move.some((n) => n !== 0) ? move : null;
}

/**
 * Whether a vote event's move still has to be applied: not when a rebuild read the star counts at the event's totals
 * version or later (`baseline`), since the vote service's counts at that version include it.
 */
export const starsMoveApplies = (eventVersion: number, baseline: number): boolean => eventVersion > baseline;
