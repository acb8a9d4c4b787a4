import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { CleanupKind, type ModerationAction } from '@snapcracks/proto/moderation/v1';
import { ReviewList, type Photo, type ReviewMarks } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { photoIdParams, photoJson, toPhotoJson } from '../photo-json.js';

const reviewBody = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'status must be "approved" or "rejected"' }),
  rejectionReason: z.string().max(500, 'The reason must be 500 characters or less').nullish(),
});

/** The admin's photo lists (spec §7 Admin), as the web app names them. */
export const REVIEW_LISTS = {
  pending: ReviewList.REVIEW_LIST_PENDING,
  all: ReviewList.REVIEW_LIST_ALL,
  'approved-today': ReviewList.REVIEW_LIST_APPROVED_TODAY,
  'rejected-today': ReviewList.REVIEW_LIST_REJECTED_TODAY,
} as const;
type ReviewListName = keyof typeof REVIEW_LISTS;

const CLEANUPS = { orphaned: CleanupKind.CLEANUP_KIND_ORPHANED, rejected: CleanupKind.CLEANUP_KIND_REJECTED } as const;
/** A cleanup works for at most 40 s (then says how far it got); this leaves room for its last page. */
const CLEANUP_DEADLINE_MS = 60_000;

const PAGE_MESSAGE = 'page must be a whole number from 1 to 100000';
const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';
const wholeNumber = (message: string, max: number) =>
  z
    .string({ error: message })
    .regex(/^[1-9]\d{0,5}$/, message)
    .transform(Number)
    .refine((n) => n <= max, message);
const listQuery = z.object({
  page: wholeNumber(PAGE_MESSAGE, 100_000).default(1),
  limit: wholeNumber(LIMIT_MESSAGE, 100).default(20),
});

const STATUS_NAMES = {
  [PhotoStatus.PHOTO_STATUS_UNSPECIFIED]: 'pending',
  [PhotoStatus.PHOTO_STATUS_PENDING]: 'pending',
  [PhotoStatus.PHOTO_STATUS_APPROVED]: 'approved',
  [PhotoStatus.PHOTO_STATUS_REJECTED]: 'rejected',
} as const;

const auditEntryJson = z.object({
  id: z.string(),
  /** approve | reject | delete */
  action: z.string(),
  actorId: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string().nullable(),
});

const reviewMarksJson = z.object({
  /** The closest earlier rejected photo whose perceptual hash is within 6 bits of this one's. */
  similarRejected: z
    .object({
      photoId: z.number(),
      rejectionReason: z.string(),
      distance: z.number(),
      sameUploader: z.boolean(),
      rejectedAt: z.string().nullable(),
    })
    .nullable(),
  /** The uploader's own earlier photo with exactly the same bytes. */
  duplicateOf: z.object({ photoId: z.number(), status: z.enum(['pending', 'approved', 'rejected']) }).nullable(),
});

/** A photo as the admin's review list shows it: everything the owner sees, its repeat-upload marks and its audit entries. */
export const adminPhotoJson = photoJson.extend({
  reviewMarks: reviewMarksJson.nullable(),
  auditLog: z.array(auditEntryJson),
});
const adminPhotoPageJson = z.object({ photos: z.array(adminPhotoJson), total: z.number(), totalPages: z.number() });

function toReviewMarksJson(marks: ReviewMarks | undefined): z.infer<typeof reviewMarksJson> | null {
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

function toAdminPhotoJson(photo: Photo, actions: ModerationAction[]): z.infer<typeof adminPhotoJson> {
  return {
    ...toPhotoJson(photo),
    reviewMarks: toReviewMarksJson(photo.reviewMarks),
    auditLog: actions.map((a) => ({ id: a.id, action: a.action, actorId: a.actorId, reason: a.detail ?? null, createdAt: a.createdAt?.toISOString() ?? null })),
  };
}

/** Authorization comes before validation: whatever else is wrong, the signed out get 401 and members 403. */
const adminFirst = { preValidation: async (request: FastifyRequest) => void (await request.requireAdmin()) };

/**
 * The admin's photo lists, the review decision, deletion and the file cleanups. The moderation service checks the
 * admin flag again and keeps the audit log; each request makes one call to it.
 */
export default async function adminPhotoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.get(
    '/api/admin/photos/:list',
    { ...adminFirst, schema: { params: z.object({ list: z.string() }), querystring: listQuery, response: { 200: adminPhotoPageJson } } },
    async (request, reply) => {
      const caller = await request.requireAdmin();
      const { list } = request.params;
      if (!Object.hasOwn(REVIEW_LISTS, list)) throw new HttpError(404, 'Unknown photo list');
      const { page, limit } = request.query;
      const answer = await clients.moderation.call.listPhotos({ list: REVIEW_LISTS[list as ReviewListName], page: { page, limit } }, { caller });
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
    },
  );

  route.patch('/api/admin/photos/:id/status', { ...adminFirst, schema: { params: photoIdParams, body: reviewBody, response: { 200: photoJson } } }, async (request) => {
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

  route.delete('/api/admin/photos/:id', { ...adminFirst, schema: { params: photoIdParams } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.moderation.call.deletePhoto({ photoId: request.params.id }, { caller });
    return reply.code(204).send();
  });

  route.post(
    '/api/admin/cleanup/:kind',
    { ...adminFirst, schema: { params: z.object({ kind: z.string() }), response: { 200: z.object({ message: z.string(), removed: z.number(), failed: z.number() }) } } },
    async (request) => {
      const caller = await request.requireAdmin();
      const { kind } = request.params;
      if (!Object.hasOwn(CLEANUPS, kind)) throw new HttpError(404, 'Unknown cleanup');
      const { message, removed, failed } = await clients.moderation.call.cleanup({ kind: CLEANUPS[kind as keyof typeof CLEANUPS] }, { caller, deadlineMs: CLEANUP_DEADLINE_MS });
      return { message, removed, failed };
    },
  );
}
