import type { FastifyInstance } from 'fastify';
import { REVIEW, routes, type AdminPhoto, type ReviewMarks as ReviewMarksJson } from '@snapcracks/http-contract';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { CleanupKind, type ModerationAction } from '@snapcracks/proto/moderation/v1';
import { ReviewList, type Photo, type ReviewMarks } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { contractRoutes, isOneOf } from '../contract-route.js';
import { toPhotoJson } from '../photo-json.js';

/** The admin's photo lists (spec §7 Admin), as the web app names them. */
export const REVIEW_LISTS: Record<(typeof REVIEW.lists)[number], ReviewList> = {
  pending: ReviewList.REVIEW_LIST_PENDING,
  all: ReviewList.REVIEW_LIST_ALL,
  'approved-today': ReviewList.REVIEW_LIST_APPROVED_TODAY,
  'rejected-today': ReviewList.REVIEW_LIST_REJECTED_TODAY,
};

const CLEANUPS: Record<(typeof REVIEW.cleanups)[number], CleanupKind> = { orphaned: CleanupKind.CLEANUP_KIND_ORPHANED, rejected: CleanupKind.CLEANUP_KIND_REJECTED };
/** A cleanup works for at most 40 s (then says how far it got); this leaves room for its last page. */
const CLEANUP_DEADLINE_MS = 60_000;

const STATUS_NAMES = {
  [PhotoStatus.PHOTO_STATUS_UNSPECIFIED]: 'pending',
  [PhotoStatus.PHOTO_STATUS_PENDING]: 'pending',
  [PhotoStatus.PHOTO_STATUS_APPROVED]: 'approved',
  [PhotoStatus.PHOTO_STATUS_REJECTED]: 'rejected',
} as const;

function toReviewMarksJson(marks: ReviewMarks | undefined): ReviewMarksJson | null {
  if (!marks || (!marks.similarRejected && !marks.duplicateOf)) return null;
  const { similarRejected: similar, duplicateOf: duplicate } = marks;
  return {
    similarRejected: similar
      ? {
          photoId: similar.photoId,
          rejectionReason: similar.rejectionReason,
          distance: similar.distance,
          sameUploader: similar.sameUploader,
          rejectedAt: similar.rejectedAt?.toISOString() ?? null,
        }
      : null,
    duplicateOf: duplicate ? { photoId: duplicate.photoId, status: STATUS_NAMES[duplicate.status] } : null,
  };
}

/** A photo as the admin's review list shows it: everything the owner sees, its repeat-upload marks and its audit entries. */
export function toAdminPhotoJson(photo: Photo, actions: ModerationAction[]): AdminPhoto {
  return {
    ...toPhotoJson(photo),
    reviewMarks: toReviewMarksJson(photo.reviewMarks),
    auditLog: actions.map((a) => ({ id: a.id, action: a.action, actorId: a.actorId, reason: a.detail ?? null, createdAt: a.createdAt?.toISOString() ?? null })),
  };
}

/**
 * The admin's photo lists, the review decision, deletion and the file cleanups. The moderation service checks the
 * admin flag again and keeps the audit log; each request makes one call to it.
 */
export default async function adminPhotoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const serve = contractRoutes(app);

  serve(routes.reviewList, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { list } = request.params;
    if (!isOneOf(REVIEW.lists, list)) throw new HttpError(404, REVIEW.unknownList);
    const { page, limit } = request.query;
    const answer = await clients.moderation.call.listPhotos({ list: REVIEW_LISTS[list], page: { page, limit } }, { caller });
    const byPhoto = new Map<number, ModerationAction[]>();
    for (const action of answer.actions) {
      if (action.photoId === undefined) continue;
      byPhoto.set(action.photoId, [...(byPhoto.get(action.photoId) ?? []), action]);
    }
    reply.header('cache-control', 'private, no-store');
    return {
      photos: answer.photos.map((photo) => toAdminPhotoJson(photo, byPhoto.get(photo.id) ?? [])),
      total: answer.total,
      totalPages: answer.totalPages,
    };
  });

  serve(routes.reviewPhoto, async (request) => {
    const caller = await request.requireAdmin();
    const { status, rejectionReason } = request.body;
    const { photo } = await clients.moderation.call.reviewPhoto(
      {
        photoId: request.params.id,
        status: status === 'approved' ? PhotoStatus.PHOTO_STATUS_APPROVED : PhotoStatus.PHOTO_STATUS_REJECTED,
        ...(rejectionReason != null ? { rejectionReason } : {}),
      },
      { caller },
    );
    if (!photo) throw new Error('The moderation service answered without a photo');
    return toPhotoJson(photo);
  });

  serve(routes.adminDeletePhoto, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.moderation.call.deletePhoto({ photoId: request.params.id }, { caller });
    return reply.code(204).send();
  });

  serve(routes.cleanup, async (request) => {
    const caller = await request.requireAdmin();
    const { kind } = request.params;
    if (!isOneOf(REVIEW.cleanups, kind)) throw new HttpError(404, REVIEW.unknownCleanup);
    const { message, removed, failed } = await clients.moderation.call.cleanup({ kind: CLEANUPS[kind] }, { caller, deadlineMs: CLEANUP_DEADLINE_MS });
    return { message, removed, failed };
  });
}
