import { InvalidArgumentError, readHeaderAndChunks, requireAdmin, requireMember, requireService, type Handlers } from '@snapcracks/kit';
import { ALLOWANCE, UPLOAD } from '@snapcracks/http-contract';
import { StorageType as StorageTypeMessage } from '@snapcracks/proto/common/v1';
import {
  GalleryFilter as GalleryFilterMessage,
  ImageVariant as ImageVariantMessage,
  ReviewList as ReviewListMessage,
  type Photo as PhotoMessage,
  type PhotoServiceServer,
  type ReviewMarks as ReviewMarksMessage,
  type UploadPhotoRequest,
  type UploadPhotoRequest_Metadata,
  type UploadPhotoRequest_LateFields,
} from '@snapcracks/proto/photo/v1';
import type { Photo, StorageType } from '../photo.repository.js';
import type { GalleryPhoto } from '../gallery.pg-repository.js';
import type { GalleryFilter, GalleryService } from '../gallery.service.js';
import {
  isUnderReview,
  parseBars,
  resubmitDeadline,
  statusFromMessage,
  statusToMessage,
  type ImageVariant,
  type PhotoService,
  type ReviewList,
  type ReviewPhoto,
} from '../photo.service.js';
import type { ReviewMarks } from '../review-marks.js';
import type { PhotoBackfillHandlers } from './backfill.server.js';
import type { PhotoFeedHandlers } from './feed.server.js';

const VARIANTS: Partial<Record<ImageVariantMessage, ImageVariant>> = {
  [ImageVariantMessage.IMAGE_VARIANT_UNSPECIFIED]: 'display',
  [ImageVariantMessage.IMAGE_VARIANT_DISPLAY]: 'display',
  [ImageVariantMessage.IMAGE_VARIANT_THUMBNAIL]: 'thumbnail',
  [ImageVariantMessage.IMAGE_VARIANT_ORIGINAL]: 'original',
  [ImageVariantMessage.IMAGE_VARIANT_MEDIUM]: 'medium',
};

const REVIEW_LISTS: Partial<Record<ReviewListMessage, ReviewList>> = {
  [ReviewListMessage.REVIEW_LIST_PENDING]: 'pending',
  [ReviewListMessage.REVIEW_LIST_APPROVED_TODAY]: 'approved_today',
  [ReviewListMessage.REVIEW_LIST_REJECTED_TODAY]: 'rejected_today',
  [ReviewListMessage.REVIEW_LIST_ALL]: 'all',
  [ReviewListMessage.REVIEW_LIST_REJECTED]: 'rejected',
};

const GALLERY_FILTERS: Partial<Record<GalleryFilterMessage, GalleryFilter>> = {
  [GalleryFilterMessage.GALLERY_FILTER_TOP_RATED]: 'top_rated',
  [GalleryFilterMessage.GALLERY_FILTER_NEED_YOUR_VOTE]: 'need_your_vote',
  [GalleryFilterMessage.GALLERY_FILTER_NEW_TODAY]: 'new_today',
  [GalleryFilterMessage.GALLERY_FILTER_NEW_THIS_WEEK]: 'new_this_week',
  [GalleryFilterMessage.GALLERY_FILTER_NEW_THIS_MONTH]: 'new_this_month',
  [GalleryFilterMessage.GALLERY_FILTER_ALL_SNAPS]: 'all_snaps',
};

const STORAGE_TYPES: Record<StorageType, StorageTypeMessage> = {
  local: StorageTypeMessage.STORAGE_TYPE_LOCAL,
  drive: StorageTypeMessage.STORAGE_TYPE_DRIVE,
  s3: StorageTypeMessage.STORAGE_TYPE_S3,
};

/**
 * Protocol edge: maps proto messages to the service's calls and back, and says which component may call what. The
 * backfill for other components' rebuilds is in backfill.server.ts, what the gateway's personal feed reads in
 * feed.server.ts.
 */
export function photoHandlers(
  service: PhotoService,
  gallery: GalleryService,
): Omit<Handlers<PhotoServiceServer>, keyof PhotoBackfillHandlers | keyof PhotoFeedHandlers> {
  return {
    async uploadPhoto(stream, ctx) {
      const caller = requireMember(ctx);
      const { header, chunks, trailer } = await readHeaderAndChunks<UploadPhotoRequest, UploadPhotoRequest_Metadata, UploadPhotoRequest_LateFields>(
        stream,
        {
          header: (m) => (m.part?.$case === 'metadata' ? m.part.value : undefined),
          chunk: (m) => (m.part?.$case === 'chunk' ? m.part.value : m.part === undefined ? new Uint8Array() : undefined),
          trailer: (m) =>
            m.part?.$case === 'lateFields' ? m.part.value : m.part?.$case === 'description' ? { description: m.part.value } : undefined,
        },
        { maxBytes: UPLOAD.maxBytes, tooLarge: () => new InvalidArgumentError(UPLOAD.refused) },
      );
      return { photo: toMessage(await service.upload(caller, header, chunks, trailer)) };
    },

    async listPublicPhotos(request) {
      const previews = await gallery.previews(request.limit);
      return {
        photos: previews.map((p) => ({
          ...EMPTY_PHOTO,
          id: p.id,
          filename: p.filename,
          imageVersion: p.imageVersion,
          description: p.description ?? undefined,
          altText: p.altText ?? undefined,
        })),
      };
    },

    async getGalleryPage(request, ctx) {
      const filter = GALLERY_FILTERS[request.filter] ?? null;
      // Need-your-vote is about the viewer: only a member in good standing has one.
      const caller = filter === 'need_your_vote' ? requireMember(ctx) : ctx.caller;
      const { photos, total, totalPages } = await gallery.page(caller, filter, request.page ?? {});
      return { photos: photos.map(toMessage), total, totalPages };
    },

    async getPhoto(request, ctx) {
      return { photo: toMessage(await service.get(ctx.caller, request.id)) };
    },

    async listMyPhotos(_request, ctx) {
      return { photos: (await service.listMine(requireMember(ctx))).map(toMessage) };
    },

    async updatePhoto(request, ctx) {
      return { photo: toMessage(await service.updateDescription(requireMember(ctx), request.id, request.description, request.altText)) };
    },

    async setPrivacyBars(request, ctx) {
      const { bars, photo } = await service.setPrivacyBars(requireMember(ctx), request.id, request.bars);
      return { bars, photo: toMessage(photo) };
    },

    async getPrivacyBars(request, ctx) {
      return { bars: await service.getPrivacyBars(requireMember(ctx), request.id) };
    },

    async deletePhoto(request, ctx) {
      const caller = requireMember(ctx);
      // Only the moderation service records deletions in its audit log; an action id from anyone else means nothing.
      const actionId = ctx.service === 'moderation' ? request.actionId || undefined : undefined;
      return { photo: toMessage(await service.delete(caller, request.id, actionId)) };
    },

    async resolveImage(request, ctx) {
      requireService(ctx, 'gateway');
      const variant = VARIANTS[request.variant];
      if (!variant) throw new InvalidArgumentError('Unknown image variant');
      return service.resolveImage(ctx.caller, request.filename, variant);
    },

    async setPhotoStatus(request, ctx) {
      requireService(ctx, 'moderation');
      const admin = requireAdmin(ctx);
      const photo = await service.setStatus(admin, request.id, {
        status: statusFromMessage(request.status),
        rejectionReason: request.rejectionReason,
        actionId: request.actionId,
        removal: request.removal === true,
        reinstate: request.reinstate === true,
        note: request.note,
      });
      return { photo: toMessage(photo) };
    },

    async getUploadAllowance(_request, ctx) {
      const { limit, pending, trusted, reasons } = await service.allowance(requireMember(ctx));
      return { limit, pending, trusted, reasons };
    },

    async getUploadAllowanceSettings(_request, ctx) {
      requireAdmin(ctx);
      return { settings: await service.allowanceSettings() };
    },

    async setUploadAllowanceSettings(request, ctx) {
      const admin = requireAdmin(ctx);
      if (!request.settings) throw new InvalidArgumentError(ALLOWANCE.settingInvalid);
      return { settings: await service.setAllowanceSettings(admin, request.settings) };
    },

    async resubmitPhoto(request, ctx) {
      return { photo: toMessage(await service.resubmit(requireMember(ctx), request.id, request.note)) };
    },

    async holdPhotoForReview(request, ctx) {
      // On no one's behalf: the moderation service decided the reports are enough.
      requireService(ctx, 'moderation');
      return { photo: toMessage(await service.holdForReview(request.id, request.actionId)) };
    },

    async getPhotosForReview(request, ctx) {
      requireService(ctx, 'moderation');
      requireAdmin(ctx);
      return { photos: (await service.getForReview(request.ids)).map(toMessage) };
    },

    async listPhotosForReview(request, ctx) {
      requireService(ctx, 'moderation');
      requireAdmin(ctx);
      const { photos, total, totalPages } = await service.listForReview(REVIEW_LISTS[request.list] ?? null, request.page ?? {});
      return { photos: photos.map(toMessage), total, totalPages };
    },

    async listReviewQueue(request, ctx) {
      requireService(ctx, 'moderation');
      requireAdmin(ctx);
      const { photos, total } = await service.reviewQueue(request.excludeIds, request.limit);
      return { photos: photos.map(toMessage), total };
    },

    async findReferencedBlobs(request, ctx) {
      requireService(ctx, 'moderation');
      requireAdmin(ctx);
      return { keys: await service.referencedBlobKeys(request.keys) };
    },
  };
}

function toReviewMarksMessage(marks: ReviewMarks): ReviewMarksMessage {
  return {
    similarRejected: marks.similarRejected,
    duplicateOf: marks.duplicateOf && { photoId: marks.duplicateOf.photoId, status: statusToMessage(marks.duplicateOf.status) },
  };
}

/** A preview carries only its id, filename and image version; the rest of the message keeps proto3 defaults. */
const EMPTY_PHOTO: PhotoMessage = {
  id: 0,
  userId: '',
  filename: '',
  originalName: '',
  mimeType: '',
  size: 0,
  status: statusToMessage('approved'),
  privacyBars: [],
  storageType: StorageTypeMessage.STORAGE_TYPE_UNSPECIFIED,
  createdAt: undefined,
  updatedAt: undefined,
  averageRating: 0,
  voteCount: 0,
  user: undefined,
  imageVersion: 0,
  width: 0,
  height: 0,
};

export function toMessage(photo: GalleryPhoto | Photo | ReviewPhoto): PhotoMessage {
  return {
    ...('reviewMarks' in photo && photo.reviewMarks ? { reviewMarks: toReviewMarksMessage(photo.reviewMarks) } : {}),
    id: photo.id,
    userId: photo.userId,
    filename: photo.filename,
    originalName: photo.originalName,
    mimeType: photo.mimeType,
    size: photo.size,
    description: photo.description ?? undefined,
    altText: photo.altText ?? undefined,
    status: statusToMessage(photo.status),
    approvedBy: photo.approvedBy ?? undefined,
    approvedAt: photo.approvedAt ?? undefined,
    rejectionReason: photo.rejectionReason ?? undefined,
    privacyBars: parseBars(photo.privacyBars),
    driveFileId: photo.driveFileId ?? undefined,
    storageType: STORAGE_TYPES[photo.storageType],
    createdAt: photo.createdAt,
    updatedAt: photo.updatedAt,
    averageRating: photo.voteCount > 0 ? photo.ratingSum / photo.voteCount : 0,
    voteCount: photo.voteCount,
    user: photo.uploader
      ? {
          id: photo.uploader.id,
          firstName: photo.uploader.firstName ?? undefined,
          lastName: photo.uploader.lastName ?? undefined,
          displayName: photo.uploader.displayName ?? undefined,
          profileImageUrl: photo.uploader.profileImageUrl ?? undefined,
          customProfileImage: photo.uploader.customProfileImage ?? undefined,
        }
      : undefined,
    imageVersion: photo.imageVersion,
    width: photo.width ?? 0,
    height: photo.height ?? 0,
    ...('heldAt' in photo ? reviewFields(photo) : {}),
  };
}

/** What a photo's owner and the admins see of its review: under review, when it can be resubmitted, its resubmission. */
function reviewFields(photo: Photo): Pick<PhotoMessage, 'underReview' | 'resubmitUntil' | 'resubmission' | 'finalRejection' | 'waitingSince'> {
  return {
    waitingSince: photo.status === 'pending' ? (photo.heldAt ?? photo.resubmittedAt ?? photo.createdAt) : undefined,
    underReview: isUnderReview(photo),
    resubmitUntil: resubmitDeadline(photo, new Date()) ?? undefined,
    resubmission: photo.resubmittedAt
      ? {
          resubmittedAt: photo.resubmittedAt,
          note: photo.resubmissionNote ?? undefined,
          previousRejectionReason: photo.previousRejectionReason ?? undefined,
          descriptionBefore: photo.rejectedDescription ?? undefined,
          privacyBarsBefore: parseBars(photo.rejectedPrivacyBars),
        }
      : undefined,
    finalRejection: photo.status === 'rejected' && photo.resubmittedAt !== null,
  };
}
