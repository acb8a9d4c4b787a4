import { REVIEW } from '@snapcracks/http-contract';
import { InvalidArgumentError, requireAdmin, requireCurrentAdmin, requireMember, type AdminRecordReader, type Handlers } from '@snapcracks/kit';
import {
  CleanupKind,
  Reversal,
  ReportDecision,
  ReportStatus,
  ReportedPhotoOrder,
  type ModerationAction as ActionMessage,
  type ReasonTemplate as TemplateMessage,
  type ModerationServiceServer,
  type Report as ReportMessage,
} from '@snapcracks/proto/moderation/v1';
import type { Report, ReportStatus as Status } from '../report.repository.js';
import type { ReportService } from '../report.service.js';
import type { ModerationService } from '../moderation.service.js';
import type { ModerationAction } from '../moderation-action.repository.js';
import type { CleanupService } from '../cleanup.service.js';
import type { ReviewDeskService } from '../review-desk.service.js';
import type { ReasonTemplateService } from '../reason-template.service.js';
import type { ReviewFiguresService } from '../review-figures.service.js';
import type { ReasonTemplate } from '../reason-template.repository.js';

/** The review desk's services, beside the review rules. */
export interface DeskServices {
  desk: ReviewDeskService;
  templates: ReasonTemplateService;
  figures: ReviewFiguresService;
}

const CLEANUPS = { [CleanupKind.CLEANUP_KIND_ORPHANED]: 'orphaned', [CleanupKind.CLEANUP_KIND_REJECTED]: 'rejected' } as const;

/**
 * Protocol edge: every call is an admin's, and every change is made by an admin whose account (read from the auth
 * service) is still an enabled admin's; the rules live in ModerationService and CleanupService.
 */
export function moderationHandlers(
  service: ModerationService,
  cleanups: Pick<CleanupService, 'run'>,
  reports: ReportService,
  adminRecord: AdminRecordReader,
  { desk, templates, figures }: DeskServices,
): Handlers<ModerationServiceServer> {
  return {
    async reviewPhoto(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      return { photo: await service.reviewPhoto(admin, request) };
    },
    async deletePhoto(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      await service.deletePhoto(admin, request.photoId);
      return {};
    },
    async listPhotos(request, ctx) {
      const admin = requireAdmin(ctx);
      const { actions, ...page } = await service.listPhotos(admin, { list: request.list, page: request.page });
      return { ...page, actions: actions.map(toMessage) };
    },
    async listActions(request, ctx) {
      requireAdmin(ctx);
      return { actions: (await service.listActions(request)).map(toMessage) };
    },
    async cleanup(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const kind = request.kind === CleanupKind.CLEANUP_KIND_ORPHANED || request.kind === CleanupKind.CLEANUP_KIND_REJECTED ? CLEANUPS[request.kind] : undefined;
      if (!kind) throw new InvalidArgumentError(REVIEW.unknownCleanup);
      return cleanups.run(admin, kind);
    },
    async reportPhoto(request, ctx) {
      const { report, photoHeld } = await reports.report(requireMember(ctx), { photoId: request.photoId, category: request.category, note: request.note });
      return { report: toReportMessage(report), photoHeld };
    },
    async listMyReports(request, ctx) {
      const page = await reports.listMine(requireMember(ctx), { page: request.page?.page ?? 0, limit: request.page?.limit ?? 0 });
      return { ...page, reports: page.reports.map(toReportMessage) };
    },
    async listReportedPhotos(request, ctx) {
      const admin = requireAdmin(ctx);
      const order = request.order === ReportedPhotoOrder.REPORTED_PHOTO_ORDER_MOST_REPORTED ? 'most_reported' : 'newest';
      const page = await reports.listReportedPhotos(admin, { page: request.page?.page ?? 0, limit: request.page?.limit ?? 0, order });
      return { ...page, photos: page.photos.map(({ photo, ...summary }) => ({ ...summary, ...(photo ? { photo } : {}) })) };
    },
    async decideReports(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const decision = request.decision === ReportDecision.REPORT_DECISION_DISMISS ? 'dismiss' : request.decision === ReportDecision.REPORT_DECISION_REMOVE ? 'remove' : null;
      return reports.decide(admin, { photoId: request.photoId, decision, reason: request.reason });
    },
    async claimNextReview(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const { item, waiting } = await desk.next(admin, { skipped: request.skipped, deciding: request.deciding });
      if (!item) return { reporters: 0, reports: [], actions: [], waiting };
      return {
        photo: item.photo,
        claim: { photoId: item.claim.photoId, expiresAt: item.claim.expiresAt },
        reporters: item.reporters,
        reports: item.reports,
        actions: item.actions.map(toMessage),
        waiting,
      };
    },
    async renewReviewClaim(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const claim = await desk.renew(admin, request.photoId);
      return { claim: { photoId: claim.photoId, expiresAt: claim.expiresAt } };
    },
    async releaseReviewClaim(request, ctx) {
      await desk.release(requireAdmin(ctx), request.photoId);
      return {};
    },
    async approvePhotos(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      return service.approvePhotos(admin, request.photoIds);
    },
    async reverseDecision(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const reversal = request.reversal === Reversal.REVERSAL_APPROVE ? 'approve' : request.reversal === Reversal.REVERSAL_REMOVE ? 'remove' : null;
      return { photo: await service.reverseDecision(admin, { photoId: request.photoId, reversal, reason: request.reason }) };
    },
    async listReasonTemplates(_request, ctx) {
      requireAdmin(ctx);
      return { templates: (await templates.list()).map(toTemplateMessage) };
    },
    async createReasonTemplate(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      return { template: toTemplateMessage(await templates.create(admin, request)) };
    },
    async updateReasonTemplate(request, ctx) {
      await requireCurrentAdmin(ctx, adminRecord);
      return { template: toTemplateMessage(await templates.update(request.id, request)) };
    },
    async deleteReasonTemplate(request, ctx) {
      await requireCurrentAdmin(ctx, adminRecord);
      await templates.delete(request.id);
      return {};
    },
    async getReviewFigures(request, ctx) {
      requireAdmin(ctx);
      const answer = await figures.figuresFor(request.days);
      return { ...answer, medianUploadToDecisionSeconds: answer.medianUploadToDecisionSeconds ?? undefined };
    },
  };
}

function toTemplateMessage(template: ReasonTemplate): TemplateMessage {
  return { id: template.id, label: template.label, text: template.text, createdAt: template.createdAt, updatedAt: template.updatedAt };
}

const REPORT_STATUSES: Record<Status, ReportStatus> = {
  open: ReportStatus.REPORT_STATUS_OPEN,
  dismissed: ReportStatus.REPORT_STATUS_DISMISSED,
  removed: ReportStatus.REPORT_STATUS_REMOVED,
};

function toReportMessage(report: Report): ReportMessage {
  return {
    id: report.id,
    photoId: report.photoId,
    category: report.category,
    note: report.note ?? undefined,
    status: REPORT_STATUSES[report.status],
    createdAt: report.createdAt,
    decidedAt: report.decidedAt ?? undefined,
    photoDescription: report.photoDescription ?? undefined,
  };
}

export function toMessage(action: ModerationAction): ActionMessage {
  return {
    id: action.id,
    actorId: action.actorId,
    action: action.action,
    photoId: action.photoId ?? undefined,
    detail: action.reason ?? undefined,
    createdAt: action.createdAt,
  };
}
