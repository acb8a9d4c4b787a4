import type { GalleryPhoto, ImageSize, Photo as PhotoJson, PrivacyBar as PrivacyBarJson, Uploader } from '@snapcracks/http-contract';
import { PhotoStatus, StorageType, type PrivacyBar, type UserSummary } from '@snapcracks/proto/common/v1';
import { ImageVariant, type Photo } from '@snapcracks/proto/photo/v1';

/**
 * The gateway's names for a photo's images (`?size=`), and the variant each one asks for: the 480 px thumbnail, the
 * 960 px medium image (the display image until the photo has one), the 2048 px display image and the original.
 */
export const IMAGE_SIZES: Record<ImageSize, ImageVariant> = {
  thumb: ImageVariant.IMAGE_VARIANT_THUMBNAIL,
  medium: ImageVariant.IMAGE_VARIANT_MEDIUM,
  display: ImageVariant.IMAGE_VARIANT_DISPLAY,
  original: ImageVariant.IMAGE_VARIANT_ORIGINAL,
};

const STATUS_NAMES: Record<PhotoStatus, 'pending' | 'approved' | 'rejected' | null> = {
  [PhotoStatus.PHOTO_STATUS_UNSPECIFIED]: null,
  [PhotoStatus.PHOTO_STATUS_PENDING]: 'pending',
  [PhotoStatus.PHOTO_STATUS_APPROVED]: 'approved',
  [PhotoStatus.PHOTO_STATUS_REJECTED]: 'rejected',
};
const STORAGE_NAMES: Record<StorageType, 'local' | 'drive' | 's3'> = {
  [StorageType.STORAGE_TYPE_UNSPECIFIED]: 'local',
  [StorageType.STORAGE_TYPE_LOCAL]: 'local',
  [StorageType.STORAGE_TYPE_DRIVE]: 'drive',
  [StorageType.STORAGE_TYPE_S3]: 's3',
};

/**
 * Where the web app fetches an image. The version makes the URL change whenever the image does (new
 * privacy bars), so a page shows the new image at once; an earlier version's URL redirects to the current one
 * (routes/images.routes.ts).
 */
export function imageUrl(filename: string, size: ImageSize, version: number): string {
  return `/api/uploads/${encodeURIComponent(filename)}?size=${size}&v=${version}`;
}

export function toBars(bars: PrivacyBar[]): PrivacyBarJson[] {
  return bars.map(({ x, y, width, height }) => ({ x, y, width, height }));
}

function toUploader(user: UserSummary | undefined): Uploader | null {
  if (!user) return null;
  return {
    id: user.id,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    displayName: user.displayName ?? null,
    profileImageUrl: user.profileImageUrl ?? null,
    customProfileImage: user.customProfileImage ?? null,
  };
}

/** A photo as its owner and admins read it (spec §3, plus its image URLs). */
export function toPhotoJson(photo: Photo): PhotoJson {
  return {
    id: photo.id,
    userId: photo.userId,
    filename: photo.filename,
    originalName: photo.originalName,
    mimeType: photo.mimeType,
    size: photo.size,
    description: photo.description ?? null,
    altText: photo.altText ?? null,
    status: STATUS_NAMES[photo.status] ?? 'pending',
    underReview: photo.underReview === true,
    resubmitUntil: photo.resubmitUntil?.toISOString() ?? null,
    resubmission: photo.resubmission
      ? {
          resubmittedAt: photo.resubmission.resubmittedAt?.toISOString() ?? null,
          note: photo.resubmission.note ?? null,
          previousRejectionReason: photo.resubmission.previousRejectionReason ?? null,
          descriptionBefore: photo.resubmission.descriptionBefore ?? null,
          privacyBarsBefore: toBars(photo.resubmission.privacyBarsBefore),
        }
      : null,
    finalRejection: photo.finalRejection === true,
    approvedBy: photo.approvedBy ?? null,
    approvedAt: photo.approvedAt?.toISOString() ?? null,
    rejectionReason: photo.rejectionReason ?? null,
    privacyBars: toBars(photo.privacyBars),
    storageType: STORAGE_NAMES[photo.storageType],
    createdAt: photo.createdAt?.toISOString() ?? null,
    updatedAt: photo.updatedAt?.toISOString() ?? null,
    averageRating: photo.averageRating,
    voteCount: photo.voteCount,
    width: photo.width,
    height: photo.height,
    imageVersion: photo.imageVersion,
    thumbnailUrl: imageUrl(photo.filename, 'thumb', photo.imageVersion),
    mediumUrl: imageUrl(photo.filename, 'medium', photo.imageVersion),
    displayUrl: imageUrl(photo.filename, 'display', photo.imageVersion),
    originalUrl: imageUrl(photo.filename, 'original', photo.imageVersion),
    user: toUploader(photo.user),
  };
}

/**
 * A photo as the public gallery shows it (cards and the dialog, spec §2): what anyone may see of an approved photo.
 * Leaves out what only its owner and admins see: the original's name and URL, the bars, who approved it.
 */
export function toGalleryPhotoJson(photo: Photo): GalleryPhoto {
  return {
    id: photo.id,
    userId: photo.userId,
    filename: photo.filename,
    description: photo.description ?? null,
    altText: photo.altText ?? null,
    status: 'approved',
    averageRating: photo.averageRating,
    voteCount: photo.voteCount,
    createdAt: photo.createdAt?.toISOString() ?? null,
    approvedAt: photo.approvedAt?.toISOString() ?? null,
    width: photo.width,
    height: photo.height,
    imageVersion: photo.imageVersion,
    thumbnailUrl: imageUrl(photo.filename, 'thumb', photo.imageVersion),
    mediumUrl: imageUrl(photo.filename, 'medium', photo.imageVersion),
    displayUrl: imageUrl(photo.filename, 'display', photo.imageVersion),
    user: toUploader(photo.user),
  };
}
