import { DESK } from '@snapcracks/http-contract';
import { FailedPreconditionError, InvalidArgumentError, type Caller, type PromiseClient } from '@snapcracks/kit';
import type { Photo, PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import type { ClaimGuard } from './moderation.service.js';
import type { ModerationAction, ModerationActionRepository } from './moderation-action.repository.js';
import type { ReportRepository, ReportedPhotoSummary } from './report.repository.js';
import type { ReviewClaim, ReviewClaimRepository } from './review-claim.repository.js';

export type DeskPhotoCalls = Pick<PromiseClient<PhotoServiceClient>, 'listReviewQueue'>;

/** Candidates asked for at a time: enough that losing a few races to other desks still finds a free photo. */
const CANDIDATES = 5;
/** Rounds of candidates before the desk says nothing is free (each round leaves out the photos others took). */
const ROUNDS = 3;
/** The audit entries shown with an item. */
const ITEM_ACTIONS = 20;

export interface DeskItem {
  photo: Photo;
  claim: ReviewClaim;
  reporters: number;
  reports: ReportedPhotoSummary['groups'];
  actions: ModerationAction[];
}

/**
 * The review desk: hands each admin the longest-waiting pending photo that no other admin holds, under a claim that
 * lasts DESK.claimSeconds unless renewed. The claim is taken in one conditional upsert (review-claim.repository.ts),
 * so two admins asking at once never get the same photo; one that loses the race takes the next candidate.
 */
export class ReviewDeskService {
  constructor(
    private readonly claims: ReviewClaimRepository,
    private readonly photos: DeskPhotoCalls,
    private readonly reports: Pick<ReportRepository, 'openReportsOf'>,
    private readonly actions: Pick<ModerationActionRepository, 'list'>,
  ) {}

  /**
   * The next photo for `admin`. Photos `skipped` at this desk are released and not handed to it again; those it has
   * decided but not yet sent (`deciding`) stay claimed and are not handed out either. Any other claim of the admin's
   * ends: an admin works on one photo at a time.
   */
  async next(admin: Caller, desk: { skipped: number[]; deciding: number[] }): Promise<{ item: DeskItem | null; waiting: number }> {
    const skipped = photoIdList(desk.skipped);
    const deciding = photoIdList(desk.deciding);
    await this.claims.release(admin.userId, skipped);
    const excluded = new Set([...(await this.claims.claimedByOthers(admin.userId)), ...skipped, ...deciding]);
    for (let round = 0; round < ROUNDS; round++) {
      const { photos, total } = await this.photos.listReviewQueue({ limit: CANDIDATES, excludeIds: [...excluded] }, { caller: admin });
      for (const photo of photos) {
        const claim = await this.claims.take(photo.id, admin.userId, DESK.claimSeconds);
        if (!claim) {
          excluded.add(photo.id);
          continue;
        }
        await this.claims.releaseAllBut(admin.userId, [photo.id, ...deciding]);
        const [{ reporters, groups }, actions] = await Promise.all([this.reports.openReportsOf(photo.id), this.actions.list({ limit: ITEM_ACTIONS, photoId: photo.id })]);
        return { item: { photo, claim, reporters, reports: groups, actions }, waiting: total };
      }
      if (photos.length < CANDIDATES) break;
    }
    await this.claims.releaseAllBut(admin.userId, deciding);
    return { item: null, waiting: 0 };
  }

  /** Keeps `admin`'s claim on the photo for another DESK.claimSeconds; refused once another admin holds it. */
  async renew(admin: Caller, photoId: number): Promise<ReviewClaim> {
    const claim = await this.claims.renew(photoId, admin.userId, DESK.claimSeconds);
    if (!claim) throw new FailedPreconditionError(DESK.claimLost);
    return claim;
  }

  async release(admin: Caller, photoId: number): Promise<void> {
    await this.claims.release(admin.userId, [photoId]);
  }
}

/** Decisions made anywhere respect the desk's claims. */
export function claimGuard(claims: Pick<ReviewClaimRepository, 'holder' | 'settle'>): ClaimGuard {
  return {
    async ensureFree(adminId, photoId) {
      const holder = await claims.holder(photoId);
      if (holder !== null && holder !== adminId) throw new FailedPreconditionError(DESK.claimedByOther);
    },
    settle: (photoId) => claims.settle(photoId),
  };
}

function photoIdList(ids: number[]): number[] {
  if (ids.length > DESK.maxExcluded) throw new InvalidArgumentError(DESK.tooManyExcluded);
  return [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
}
