import { describe, expect, it } from 'vitest';
import {
  COUNTER_SHARDS,
  applyPhotoChange,
  applyVoteTotals,
  shardOf,
  starsMoveApplies,
  starsMoveOf,
  unknownPhoto,
  type PhotoRow,
  type PhotoStateFacts,
} from './stats.projection.js';

const state = (over: Partial<PhotoStateFacts> = {}): PhotoStateFacts => ({
  ownerId: 'ada',
  status: 'pending',
  filename: '7.webp',
  description: null,
  createdAt: new Date('2030-01-01T00:00:00Z'),
  approvedAt: null,
  version: 1,
  ...over,
});
const row = (over: Partial<PhotoRow> = {}): PhotoRow => ({ ...unknownPhoto(7), ...over });
const approved = (over: Partial<PhotoRow> = {}) => row({ ownerId: 'ada', status: 'approved', version: 2, ...over });
const noon = new Date('2030-01-02T12:00:00Z');

describe('merging a photo event into its row', () => {
  it('takes a newer state and ignores an older or repeated one', () => {
    const stored = applyPhotoChange(row(), { kind: 'state', state: state({ version: 2, status: 'approved' }) })!;
    expect(stored).toMatchObject({ ownerId: 'ada', status: 'approved', version: 2, filename: '7.webp' });
    expect(applyPhotoChange(stored, { kind: 'state', state: state({ version: 1 }) })).toBeNull();
    expect(applyPhotoChange(stored, { kind: 'state', state: state({ version: 2, status: 'rejected' }) })).toBeNull();
  });

  it('keeps the time of a review decision by its own version, even when an edit overtook it', () => {
    const edited = row({ ownerId: 'ada', status: 'rejected', version: 3, description: 'after' });
    const late = applyPhotoChange(edited, { kind: 'reviewed', state: state({ version: 2, status: 'rejected' }), reviewedAt: noon });
    expect(late).toEqual({ ...edited, reviewedAt: noon, reviewVersion: 2 });
    expect(applyPhotoChange(late!, { kind: 'reviewed', state: state({ version: 2, status: 'rejected' }), reviewedAt: new Date() })).toBeNull();
    const inOrder = applyPhotoChange(row({ version: 1 }), { kind: 'reviewed', state: state({ version: 2, status: 'approved' }), reviewedAt: noon });
    expect(inOrder).toMatchObject({ status: 'approved', version: 2, reviewedAt: noon, reviewVersion: 2 });
  });

  it('lets a deletion win whatever its version, and never changes a deleted row again', () => {
    const gone = applyPhotoChange(approved({ version: 5 }), { kind: 'deleted', state: state({ version: 4, status: 'approved' }) })!;
    expect(gone).toMatchObject({ deleted: true, version: 5 });
    expect(applyPhotoChange(gone, { kind: 'state', state: state({ version: 9, status: 'approved' }) })).toBeNull();
    expect(applyPhotoChange(gone, { kind: 'reviewed', state: state({ version: 9 }), reviewedAt: noon })).toBeNull();
    expect(applyPhotoChange(gone, { kind: 'deleted', state: state({ version: 9 }) })).toBeNull();
  });

  it('takes newer vote totals only', () => {
    const voted = applyVoteTotals(row(), { voteCount: 2, ratingSum: 9, version: 2 })!;
    expect(voted).toMatchObject({ voteCount: 2, ratingSum: 9, ratingVersion: 2, status: null });
    expect(applyVoteTotals(voted, { voteCount: 1, ratingSum: 5, version: 1 })).toBeNull();
    expect(applyVoteTotals(voted, { voteCount: 7, ratingSum: 7, version: 2 })).toBeNull();
    expect(applyVoteTotals(voted, { voteCount: 3, ratingSum: 10, version: 3 })).toMatchObject({ voteCount: 3, ratingVersion: 3 });
  });
});

describe('the counter shards', () => {
  it('spreads photos over the shards', () => {
    const shards = new Set(Array.from({ length: 100 }, (_, i) => shardOf(i + 1)));
    expect(shards.size).toBe(COUNTER_SHARDS);
    expect([...shards].every((s) => s >= 0 && s < COUNTER_SHARDS)).toBe(true);
  });
});

describe('votes per star', () => {
  it('moves a new vote in, a changed vote from one star to another, and a removed vote out', () => {
    expect(starsMoveOf(4, undefined)).toEqual([0, 0, 0, 1, 0]);
    expect(starsMoveOf(2, 5)).toEqual([0, 1, 0, 0, -1]);
    // Removed with its voter's account: rating 0, the removed rating as previous.
    expect(starsMoveOf(0, 3)).toEqual([0, 0, -1, 0, 0]);
  });

  it('moves nothing for the same rating again, or ratings out of range', () => {
    expect(starsMoveOf(3, 3)).toBeNull();
    expect(starsMoveOf(undefined, undefined)).toBeNull();
    expect(starsMoveOf(6, 0)).toBeNull();
  });

  it('skips a vote event a rebuild already counted (at or below its baseline)', () => {
    expect(starsMoveApplies(5, 0)).toBe(true);
    expect(starsMoveApplies(5, 4)).toBe(true);
    expect(starsMoveApplies(5, 5)).toBe(false);
    expect(starsMoveApplies(3, 5)).toBe(false);
  });
});
