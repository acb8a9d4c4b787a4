import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { DomainError, FailedPreconditionError, InvalidArgumentError, NotFoundError, isServiceError, type Caller, type Logger, type PromiseClient } from '@snapcracks/kit';
import { DESK, REJECTION_REASON, REVERSAL, REVIEW } from '@snapcracks/http-contract';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { ListPhotosForReviewRequest, ListPhotosForReviewResponse, Photo, PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import type { ActionQuery, ModerationAction, ModerationActionRepository, NewModerationAction } from './moderation-action.repository.js';

/** The photo service's calls this service makes; the kit's client in production, a fake in unit tests. */
export type PhotoCalls = Pick<PromiseClient<PhotoServiceClient>, 'setPhotoStatus' | 'deletePhoto' | 'listPhotosForReview' | 'findReferencedBlobs' | 'getPhotosForReview'>;

export const REASON_REQUIRED = REJECTION_REASON.required;
export const DEFAULT_ACTION_LIMIT = 50;
export const MAX_ACTION_PHOTO_IDS = 100;
/** Audit entries answered with a page of the admin's photo list: enough for every decision on a full page. */
const PAGE_ACTION_LIMIT = 200;
/** The audit log's own calls (ListActions) answer at most as many entries. */
const actionLimitMessage = `Limit must be between 1 and ${PAGE_ACTION_LIMIT}`;

const limitSchema = z.number().int('Limit must be a whole number').min(1, actionLimitMessage).max(PAGE_ACTION_LIMIT, actionLimitMessage);

/**
 * The review desk's claims, as decisions see them: a photo another admin has claimed is not theirs to decide, and a
 * decided photo's claim goes. (review-desk.service.ts keeps them.)
 */
export interface ClaimGuard {
  /** Throws FAILED_PRECONDITION (DESK.claimedByOther) while another admin's claim on the photo runs. */
  ensureFree(adminId: string, photoId: number): Promise<void>;
  settle(photoId: number): Promise<void>;
}

/** No desk: every photo is free (unit tests of the rules without claims). */
export const NO_CLAIMS: ClaimGuard = { ensureFree: async () => undefined, settle: async () => undefined };

/** The photo service's refusals a bulk approval reports per photo instead of failing the whole request. */
const PER_PHOTO_REFUSALS = new Set<number>([GrpcStatus.NOT_FOUND, GrpcStatus.FAILED_PRECONDITION, GrpcStatus.ABORTED, GrpcStatus.INVALID_ARGUMENT]);

export type ReversalKind = 'approve' | 'remove';

export interface ReviewDecision {
  photoId: number;
  status: PhotoStatus;
  rejectionReason?: string | undefined;
}

/**
 * Review rules and the audit log. The photo service owns photos and decides whether a change is allowed
 * (its NOT_FOUND and FAILED_PRECONDITION pass through to the caller unchanged); this service checks what it
 * can before calling, names each decision with an action id, and records it.
 *
 * Every decision is recorded twice over, idempotently: directly after the photo call succeeds, and from the
 * photo service's status or deletion event, which carries the same action id and is committed with the change
 * (see consumers/photo-decisions.consumer.ts). So a decision whose direct write is lost still reaches the log,
 * and one recorded both ways has one entry.
 */
export class ModerationService {
  constructor(
    private readonly actions: ModerationActionRepository,
    private readonly photos: PhotoCalls,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly newActionId: () => string = randomUUID,
    private readonly claims: ClaimGuard = NO_CLAIMS,
  ) {}

  /** Approves or rejects a pending photo as `admin`; rejecting needs a reason. Returns the photo as it now is. */
  async reviewPhoto(admin: Caller, decision: ReviewDecision): Promise<Photo | undefined> {
    let action: 'approve' | 'reject';
    let reason: string | undefined;
    if (decision.status === PhotoStatus.PHOTO_STATUS_APPROVED) {
      action = 'approve';
    } else if (decision.status === PhotoStatus.PHOTO_STATUS_REJECTED) {
      action = 'reject';
      reason = decision.rejectionReason?.trim();
      if (!reason) throw new InvalidArgumentError(REASON_REQUIRED);
    } else {
      throw new InvalidArgumentError(REVIEW.statusInvalid);
    }

    await this.claims.ensureFree(admin.userId, decision.photoId);
    const id = this.newActionId();
    const { photo } = await this.photos.setPhotoStatus(
      { id: decision.photoId, status: decision.status, rejectionReason: reason, actionId: id },
      { caller: admin },
    );
    await this.record({ id, actorId: admin.userId, action, photoId: decision.photoId, reason: reason ?? null, photoOwnerId: photo?.userId ?? null, photoUploadedAt: photo?.createdAt ?? null });
    await this.settleClaim(decision.photoId);
    return photo;
  }

  /**
   * Approves each photo as its own audited decision, one after another. A photo that cannot be approved (decided
   * meanwhile, claimed at another admin's desk, gone) is listed with the reason and the others go on.
   */
  async approvePhotos(admin: Caller, photoIds: number[]): Promise<{ approved: number[]; failed: { photoId: number; message: string }[] }> {
    const ids = [...new Set(photoIds)];
    if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id) || id < 1)) throw new InvalidArgumentError(DESK.bulkEmpty);
    if (ids.length > DESK.bulkMax) throw new InvalidArgumentError(DESK.bulkTooMany);
    const approved: number[] = [];
    const failed: { photoId: number; message: string }[] = [];
    for (const photoId of ids) {
      try {
        await this.reviewPhoto(admin, { photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED });
        approved.push(photoId);
      } catch (error) {
        const message = refusalMessage(error);
        if (message === null) throw error;
        failed.push({ photoId, message });
      }
    }
    return { approved, failed };
  }

  /**
   * Takes back a decision, with a reason: `remove` rejects an approved photo (its owner reads the reason, as for a
   * rejection), `approve` puts a rejected or removed one in the gallery after all. The photo service checks the photo's
   * status; its event moves the gallery, votes and figures.
   */
  async reverseDecision(admin: Caller, input: { photoId: number; reversal: ReversalKind | null; reason: string }): Promise<Photo | undefined> {
    if (input.reversal !== 'approve' && input.reversal !== 'remove') throw new InvalidArgumentError(REVERSAL.decisionInvalid);
    const reason = input.reason.trim();
    if (!reason) throw new InvalidArgumentError(REVERSAL.reasonRequired);
    if (reason.length > REJECTION_REASON.maxLength) throw new InvalidArgumentError(REJECTION_REASON.tooLong);
    const [current] = (await this.photos.getPhotosForReview({ ids: [input.photoId] }, { caller: admin })).photos;
    if (!current) throw new NotFoundError('Photo not found');
    if (input.reversal === 'remove' && current.status !== PhotoStatus.PHOTO_STATUS_APPROVED) throw new FailedPreconditionError(REVERSAL.notApproved);
    if (input.reversal === 'approve' && current.status !== PhotoStatus.PHOTO_STATUS_REJECTED) throw new FailedPreconditionError(REVERSAL.notRejected);
    const id = this.newActionId();
    const request =
      input.reversal === 'approve'
        ? { id: input.photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId: id, reinstate: true, note: reason }
        : { id: input.photoId, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: reason, actionId: id, removal: true };
    const { photo } = await this.photos.setPhotoStatus(request, { caller: admin });
    const action = input.reversal === 'approve' ? 'reinstate' : 'remove';
    await this.record({ id, actorId: admin.userId, action, photoId: input.photoId, reason, photoOwnerId: photo?.userId ?? null, photoUploadedAt: photo?.createdAt ?? null });
    return photo;
  }

  /** Deletes a photo at any status as `admin`. */
  async deletePhoto(admin: Caller, photoId: number): Promise<void> {
    const id = this.newActionId();
    const { photo } = await this.photos.deletePhoto({ id: photoId, actionId: id }, { caller: admin });
    await this.record({ id, actorId: admin.userId, action: 'delete', photoId, reason: null, photoOwnerId: photo?.userId ?? null, photoUploadedAt: photo?.createdAt ?? null });
    await this.settleClaim(photoId);
  }

  /** The newest entries, all or about some photos. A limit of 0 (unset) means 50. */
  listActions(query: { limit: number; photoId?: number | undefined; photoIds?: number[] | undefined }): Promise<ModerationAction[]> {
    const limit = limitSchema.parse(query.limit === 0 ? DEFAULT_ACTION_LIMIT : query.limit);
    const photoIds = query.photoIds ?? [];
    if (photoIds.length > MAX_ACTION_PHOTO_IDS) throw new InvalidArgumentError(`At most ${MAX_ACTION_PHOTO_IDS} photo ids at a time`);
    const filter: ActionQuery = {
      limit,
      ...(query.photoId === undefined ? {} : { photoId: query.photoId }),
      ...(photoIds.length > 0 ? { photoIds } : {}),
    };
    return this.actions.list(filter);
  }

  /**
   * The admin's photo lists come from the photo service, which owns them; the audit entries about the listed
   * photos come with them, so the page needs one call.
   */
  async listPhotos(admin: Caller, request: ListPhotosForReviewRequest): Promise<ListPhotosForReviewResponse & { actions: ModerationAction[] }> {
    const page = await this.photos.listPhotosForReview(request, { caller: admin });
    const photoIds = page.photos.map((photo) => photo.id);
    const actions = photoIds.length > 0 ? await this.actions.list({ limit: PAGE_ACTION_LIMIT, photoIds }) : [];
    return { ...page, actions };
  }

  /** A claim left behind ends by itself within DESK.claimSeconds; the decision stands either way. */
  private async settleClaim(photoId: number): Promise<void> {
    try {
      await this.claims.settle(photoId);
    } catch (error) {
      this.logger.warn({ err: error, photoId }, 'review claim not released after the decision; it will expire');
    }
  }

  /**
   * The photo change has committed, so the decision stands whatever happens here: a failed write is logged and
   * the caller still gets the answer, because the photo service's event will record the entry under the same id.
   */
  private async record(action: NewModerationAction): Promise<void> {
    try {
      await this.actions.record(action);
    } catch (error) {
      this.logger.warn({ err: error, actionId: action.id, photoId: action.photoId, action: action.action }, 'audit entry not written directly; the photo event will record it');
    }
  }
}

/** What a refusal of one photo says (a rule, or the photo service's answer), or null for a failure of the request itself. */
function refusalMessage(error: unknown): string | null {
  if (error instanceof DomainError) return error.message;
  if (isServiceError(error) && PER_PHOTO_REFUSALS.has(error.code)) return error.details;
  return null;
}
