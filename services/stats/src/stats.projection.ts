/**
 * The projection's merge rules, free of I/O: how an event's state or totals merge into a photo's row (each side kept
 * by its own version), and how a vote moves the star counts. The consumers and the rebuild apply these; what a row
 * counts for in the community's and its owner's figures is the stats schema's photo_figures (see its migration),
 * which every statement that writes the rows applies.
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

/**
 * Counter rows are split in shards so that consumers working on different photos rarely wait on one row; a read sums
 * them. A photo always moves the shard of its id. Changing the number later is safe: a read sums every row.
 */
export const COUNTER_SHARDS = 16;

export const shardOf = (photoId: number): number => photoId % COUNTER_SHARDS;

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
