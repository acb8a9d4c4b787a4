import { describe, expect, it } from 'vitest';
import { DESK } from '@snapcracks/http-contract';
import { FailedPreconditionError, InvalidArgumentError, type Caller } from '@snapcracks/kit';
import type { Photo } from '@snapcracks/proto/photo/v1';
import { photoMessage } from './testing/fake-photo-service.js';
import type { ReviewClaim, ReviewClaimRepository } from './review-claim.repository.js';
import { ReviewDeskService, claimGuard, type DeskPhotoCalls } from './review-desk.service.js';

const ann: Caller = { userId: 'ann', isAdmin: true, hasAcceptedTerms: true };

/** Claims in memory; `lose` names photos another desk takes first, between the queue's answer and this take. */
function claimsInMemory(lose: number[] = []) {
  const rows = new Map<number, ReviewClaim>();
  const released: number[][] = [];
  const repository: ReviewClaimRepository = {
    take: async (photoId, adminId) => {
      if (lose.includes(photoId)) {
        rows.set(photoId, { photoId, adminId: 'bob', expiresAt: new Date(Date.now() + 60_000) });
        return null;
      }
      const claim = { photoId, adminId, expiresAt: new Date(Date.now() + DESK.claimSeconds * 1000) };
      rows.set(photoId, claim);
      return claim;
    },
    renew: async (photoId, adminId) => (rows.get(photoId)?.adminId === adminId ? rows.get(photoId)! : null),
    release: async (adminId, photoIds) => {
      released.push(photoIds);
      for (const id of photoIds) if (rows.get(id)?.adminId === adminId) rows.delete(id);
    },
    releaseAllBut: async (adminId, keep) => {
      for (const [id, claim] of rows) if (claim.adminId === adminId && !keep.includes(id)) rows.delete(id);
    },
    claimedByOthers: async (adminId) => [...rows.values()].filter((c) => c.adminId !== adminId).map((c) => c.photoId),
    holder: async (photoId) => rows.get(photoId)?.adminId ?? null,
    settle: async (photoId) => void rows.delete(photoId),
  };
  return { repository, rows, released };
}

/** The photo service's queue: `pending` in order, less what the desk leaves out; the requests it got. */
function queueOf(pending: number[]) {
  const requests: { limit: number; excludeIds: number[] }[] = [];
  const photos: DeskPhotoCalls = {
    listReviewQueue: async (request) => {
      requests.push({ limit: request.limit, excludeIds: [...request.excludeIds] });
      const left = pending.filter((id) => !request.excludeIds.includes(id));
      return { photos: left.slice(0, request.limit).map((id): Photo => photoMessage(id, 'owner')), total: left.length };
    },
  };
  return { photos, requests };
}

const noReports = { openReportsOf: async () => ({ reporters: 0, groups: [] }) };
const noActions = { list: async () => [] };

describe('the review desk', () => {
  it('takes the next candidate when another desk took the first between the queue and the claim', async () => {
    const claims = claimsInMemory([1]);
    const desk = new ReviewDeskService(claims.repository, queueOf([1, 2, 3]).photos, noReports, noActions);
    const { item } = await desk.next(ann, { skipped: [], deciding: [] });
    expect(item?.photo.id).toBe(2);
    expect(claims.rows.get(2)?.adminId).toBe('ann');
  });

  it('asks again, leaving out the photos others took, when a whole round of candidates was taken', async () => {
    const claims = claimsInMemory([1, 2, 3, 4, 5]);
    const queue = queueOf([1, 2, 3, 4, 5, 6]);
    const { item } = await new ReviewDeskService(claims.repository, queue.photos, noReports, noActions).next(ann, { skipped: [], deciding: [] });
    expect(item?.photo.id).toBe(6);
    expect(queue.requests.map((r) => r.excludeIds)).toEqual([[], [1, 2, 3, 4, 5]]);
  });

  it('releases skipped photos and leaves them out; keeps the claims of decisions still held; ends any other claim', async () => {
    const claims = claimsInMemory();
    const queue = queueOf([1, 2, 3, 4]);
    const desk = new ReviewDeskService(claims.repository, queue.photos, noReports, noActions);
    await desk.next(ann, { skipped: [], deciding: [] }); // 1
    await claims.repository.take(3, 'ann', 120); // a claim left from an earlier visit
    const { item, waiting } = await desk.next(ann, { skipped: [1], deciding: [2] });
    expect(claims.released).toEqual([[], [1]]);
    expect(queue.requests.at(-1)?.excludeIds.sort()).toEqual([1, 2]);
    expect(item?.photo.id).toBe(3);
    expect(waiting).toBe(2);
    await claims.repository.take(2, 'ann', 120);
    await desk.next(ann, { skipped: [1, 3], deciding: [2] });
    expect([...claims.rows.keys()].sort()).toEqual([2, 4]);
  });

  it('answers no item when nothing is free, and keeps only the held decisions’ claims', async () => {
    const claims = claimsInMemory();
    await claims.repository.take(9, 'ann', 120);
    await claims.repository.take(8, 'ann', 120);
    const answer = await new ReviewDeskService(claims.repository, queueOf([]).photos, noReports, noActions).next(ann, { skipped: [], deciding: [8] });
    expect(answer).toEqual({ item: null, waiting: 0 });
    expect([...claims.rows.keys()]).toEqual([8]);
  });

  it('refuses more than DESK.maxExcluded photos left out, and a renewal of a claim that is not the admin’s', async () => {
    const claims = claimsInMemory();
    const desk = new ReviewDeskService(claims.repository, queueOf([1]).photos, noReports, noActions);
    const many = Array.from({ length: DESK.maxExcluded + 1 }, (_, i) => i + 1);
    await expect(desk.next(ann, { skipped: many, deciding: [] })).rejects.toThrow(new InvalidArgumentError(DESK.tooManyExcluded));
    await claims.repository.take(1, 'bob', 120);
    await expect(desk.renew(ann, 1)).rejects.toThrow(new FailedPreconditionError(DESK.claimLost));
  });

  it('guards decisions: free, or claimed by the deciding admin, passes; another admin’s claim refuses', async () => {
    const claims = claimsInMemory();
    const guard = claimGuard(claims.repository);
    await expect(guard.ensureFree('ann', 1)).resolves.toBeUndefined();
    await claims.repository.take(1, 'ann', 120);
    await expect(guard.ensureFree('ann', 1)).resolves.toBeUndefined();
    await expect(guard.ensureFree('bob', 1)).rejects.toThrow(new FailedPreconditionError(DESK.claimedByOther));
    await guard.settle(1);
    await expect(guard.ensureFree('bob', 1)).resolves.toBeUndefined();
  });
});
