import { randomUUID } from 'node:crypto';
import {
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  isServiceError,
  type Caller,
  type Logger,
  type PromiseClient,
} from '@snapcracks/kit';
import { PAGES, REFUSALS, REJECTION_REASON, REPORTS, pageProblem, type ReportCategory } from '@snapcracks/http-contract';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { Photo, PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import type { ModerationActionRepository, NewModerationAction } from './moderation-action.repository.js';
import { NO_CLAIMS, type ClaimGuard } from './moderation.service.js';
import type { Report, ReportRepository, ReportedPhotoOrder, ReportedPhotoSummary } from './report.repository.js';

/** The photo service's calls reports make; the kit's client in production, a fake in unit tests. */
export type ReportPhotoCalls = Pick<PromiseClient<PhotoServiceClient>, 'getPhoto' | 'holdPhotoForReview' | 'getPhotosForReview' | 'setPhotoStatus'>;

/** Who the audit log names for a hold: the members' reports, not one person. */
export const HELD_BY_REPORTS = 'reports';

export interface ReportSettings {
  /** Distinct members whose open reports hold a photo for review (REPORTS_TO_HOLD). */
  holdThreshold: number;
}

export type ReportDecisionKind = 'dismiss' | 'remove';

/**
 * Member reports: who may report what, when reports take a photo out of the gallery, and what an admin's decision
 * does to the photo and its reports. The photo service owns the photo and its status (a hold, an approval, a removal);
 * this service owns the reports and the audit log.
 */
export class ReportService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly actions: ModerationActionRepository,
    private readonly photos: ReportPhotoCalls,
    private readonly settings: ReportSettings,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => Date = () => new Date(),
    private readonly newId: () => string = randomUUID,
    private readonly claims: ClaimGuard = NO_CLAIMS,
  ) {}

  /**
   * Stores `member`'s report of an approved photo of someone else's, then holds the photo for review once enough
   * distinct members have an open report of it. A hold that loses a race (an admin decided, another report held it
   * first) changes nothing: the photo is no longer approved.
   */
  async report(member: Caller, input: { photoId: number; category: string; note?: string | undefined }): Promise<{ report: Report; photoHeld: boolean }> {
    const category = reportCategory(input.category);
    const note = reportNote(input.note);
    const photo = await this.approvedPhoto(member, input.photoId);
    if (photo.userId === member.userId) throw new PermissionDeniedError(REFUSALS.ownPhotoReport);

    const report = {
      id: this.newId(),
      photoId: photo.id,
      reporterId: member.userId,
      category,
      note,
      photoOwnerId: photo.userId,
      photoDescription: photo.description ?? null,
    };
    if (!(await this.reports.create(report))) throw new FailedPreconditionError(REPORTS.alreadyReported);
    const stored: Report = { ...report, status: 'open', createdAt: this.now(), decidedAt: null, decidedBy: null };

    if ((await this.reports.openReporters(photo.id)) < this.settings.holdThreshold) return { report: stored, photoHeld: false };
    return { report: stored, photoHeld: await this.hold(photo.id) };
  }

  async listMine(member: Caller, page: { page: number; limit: number }): Promise<{ reports: Report[]; total: number; totalPages: number }> {
    const { pageNumber, limit } = checkedPage(page);
    const { reports, total } = await this.reports.listByReporter(member.userId, { offset: (pageNumber - 1) * limit, limit });
    return { reports, total, totalPages: Math.ceil(total / limit) };
  }

  /** Photos with open reports and the photos themselves, as `admin` may see them (a photo gone meanwhile is absent). */
  async listReportedPhotos(
    admin: Caller,
    query: { page: number; limit: number; order: ReportedPhotoOrder },
  ): Promise<{ photos: (ReportedPhotoSummary & { photo: Photo | undefined })[]; total: number; totalPages: number }> {
    const { pageNumber, limit } = checkedPage(query);
    const { photos, total } = await this.reports.listReportedPhotos(query.order, { offset: (pageNumber - 1) * limit, limit });
    const found = photos.length > 0 ? (await this.photos.getPhotosForReview({ ids: photos.map((p) => p.photoId) }, { caller: admin })).photos : [];
    const byId = new Map(found.map((photo) => [photo.id, photo]));
    return { photos: photos.map((summary) => ({ ...summary, photo: byId.get(summary.photoId) })), total, totalPages: Math.ceil(total / limit) };
  }

  /**
   * `dismiss`: the reports were wrong; a held photo returns to the gallery where it was. `remove`: the photo is
   * rejected, approved or held, with a reason its owner sees. Either way the photo's open reports close with that
   * outcome, which each reporter then sees; `closed` counts the reports open when the admin decided. The photo changes first: if closing the reports then fails, the admin's
   * retry finds the photo already decided and closes them.
   */
  async decide(admin: Caller, input: { photoId: number; decision: ReportDecisionKind | null; reason?: string | undefined }): Promise<{ photo: Photo; closed: number }> {
    if (input.decision !== 'dismiss' && input.decision !== 'remove') throw new InvalidArgumentError(REPORTS.decisionInvalid);
    const reason = input.reason?.trim() ?? '';
    if (input.decision === 'remove') {
      if (!reason) throw new InvalidArgumentError(REPORTS.removalReasonRequired);
      if (reason.length > REJECTION_REASON.maxLength) throw new InvalidArgumentError(REJECTION_REASON.tooLong);
    }
    let { photo } = await this.photos.getPhoto({ id: input.photoId }, { caller: admin });
    if (!photo) throw new NotFoundError('Photo not found');
    const open = await this.reports.openReporters(photo.id);
    const decided = input.decision === 'dismiss' ? photo.status === PhotoStatus.PHOTO_STATUS_APPROVED : photo.status === PhotoStatus.PHOTO_STATUS_REJECTED;
    if (open === 0 && (decided || !photo.underReview)) throw new FailedPreconditionError(REPORTS.nothingToDecide);
    await this.claims.ensureFree(admin.userId, photo.id);

    const actionId = this.newId();
    if (input.decision === 'dismiss') {
      if (photo.underReview) {
        photo = (await this.photos.setPhotoStatus({ id: photo.id, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId }, { caller: admin })).photo;
        await this.record({ id: actionId, actorId: admin.userId, action: 'approve', photoId: input.photoId, reason: null, photoOwnerId: photo?.userId ?? null, photoUploadedAt: photo?.createdAt ?? null });
      } else {
        await this.record({ id: actionId, actorId: admin.userId, action: 'dismiss_reports', photoId: input.photoId, reason: null, photoOwnerId: photo.userId });
      }
    } else if (!decided) {
      photo = (
        await this.photos.setPhotoStatus({ id: photo.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: reason, actionId, removal: true }, { caller: admin })
      ).photo;
      await this.record({ id: actionId, actorId: admin.userId, action: 'remove', photoId: input.photoId, reason, photoOwnerId: photo?.userId ?? null, photoUploadedAt: photo?.createdAt ?? null });
    }
    if (!photo) throw new Error('The photo service answered without a photo');
    // The photo's status event closes the same reports with the same outcome, and may have done so already.
    await this.reports.closeOpen(photo.id, input.decision === 'dismiss' ? 'dismissed' : 'removed', admin.userId, this.now());
    await this.claims.settle(photo.id);
    return { photo, closed: open };
  }

  private async approvedPhoto(member: Caller, photoId: number): Promise<Photo> {
    try {
      const { photo } = await this.photos.getPhoto({ id: photoId }, { caller: member });
      // The owner may see their own pending photo; only an approved one can be reported.
      if (photo && (photo.status === PhotoStatus.PHOTO_STATUS_APPROVED || photo.userId === member.userId)) return photo;
    } catch (error) {
      if (!(isServiceError(error) && error.code === GrpcStatus.NOT_FOUND)) throw error;
    }
    throw new NotFoundError(REPORTS.notFound);
  }

  private async hold(photoId: number): Promise<boolean> {
    const actionId = this.newId();
    try {
      const { photo } = await this.photos.holdPhotoForReview({ id: photoId, actionId }, { caller: null });
      await this.record({ id: actionId, actorId: HELD_BY_REPORTS, action: 'hold', photoId, reason: null, photoOwnerId: photo?.userId ?? null });
      return true;
    } catch (error) {
      if (isServiceError(error) && (error.code === GrpcStatus.FAILED_PRECONDITION || error.code === GrpcStatus.ABORTED)) return false;
      throw error;
    }
  }

  /** As ModerationService.record: the photo change stands, and its event records the entry if this write is lost. */
  private async record(action: NewModerationAction): Promise<void> {
    try {
      await this.actions.record(action);
    } catch (error) {
      this.logger.warn({ err: error, actionId: action.id, photoId: action.photoId, action: action.action }, 'audit entry not written directly; the photo event will record it');
    }
  }
}

function reportCategory(value: string): ReportCategory {
  if (!(REPORTS.categories as readonly string[]).includes(value)) throw new InvalidArgumentError(REPORTS.categoryInvalid);
  return value as ReportCategory;
}

function reportNote(value: string | undefined): string | null {
  const note = value?.trim() ?? '';
  if (note.length > REPORTS.noteMaxLength) throw new InvalidArgumentError(REPORTS.noteTooLong);
  return note || null;
}

function checkedPage(page: { page: number; limit: number }): { pageNumber: number; limit: number } {
  const pageNumber = page.page || 1;
  const limit = page.limit || PAGES.limits.reports.default;
  const problem = pageProblem(pageNumber, limit, PAGES.limits.reports);
  if (problem) throw new InvalidArgumentError(problem);
  return { pageNumber, limit };
}
