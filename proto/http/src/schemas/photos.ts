import { z } from 'zod';
import { ALT_TEXT, DESCRIPTION, ERRORS, PRIVACY_BARS, RESUBMIT, UPLOAD } from '../rules.js';
import { requiredText, timestamp, wholeNumber } from '../fields.js';
import { isValidPrivacyBar } from '../privacy-bars.js';

export const photoStatus = z.enum(['pending', 'approved', 'rejected']).meta({ id: 'PhotoStatus' });

/** Photo ids in paths: positive integers only, so "1.5", "-1" or "1e3" are a 400, never a lookup. */
export const photoIdParams = z.object({ id: wholeNumber(ERRORS.invalidPhotoId, 999_999_999_999_999).meta({ description: 'The photo id.' }) });

/** A black box hiding part of a photo; every value is a percentage (0–100) of the image's size. */
export const privacyBar = z
  .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ id: 'PrivacyBar' });

const percent = (min: 'gte' | 'gt') => {
  const number = z.number({ error: PRIVACY_BARS.invalid });
  return (min === 'gt' ? number.gt(0, PRIVACY_BARS.invalid) : number.min(0, PRIVACY_BARS.invalid)).max(100, PRIVACY_BARS.invalid);
};

/** The bars a member sets on their photo: each inside the image, at most PRIVACY_BARS.maxPerPhoto. */
export const privacyBarsBody = z
  .object({
    bars: z
      .array(
        z.object({ x: percent('gte'), y: percent('gte'), width: percent('gt'), height: percent('gt') }).refine(isValidPrivacyBar, PRIVACY_BARS.invalid),
        { error: PRIVACY_BARS.notAList },
      )
      .max(PRIVACY_BARS.maxPerPhoto, PRIVACY_BARS.tooMany),
  })
  .meta({ id: 'PrivacyBarsUpdate' });

export const privacyBars = z.object({ bars: z.array(privacyBar) }).meta({ id: 'PrivacyBars' });

/** A photo's alt text as shown: null when its owner gave none (the description stands in). */
const altText = z.string().nullable().meta({ description: 'What the photo shows, for people who cannot see it; null when none was given (use the description).' });

/** The uploader of a photo, as much of the user as the display-name and avatar rules need (spec §3). */
export const uploader = z
  .object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    displayName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    customProfileImage: z.string().nullable(),
  })
  .meta({ id: 'Uploader' });

/** Where each size of a photo's image is served; the URL changes with the image (new privacy bars). */
const imageUrls = {
  /** At most 480 px wide (WebP): `/api/uploads/{filename}?size=thumb&v={imageVersion}`. */
  thumbnailUrl: z.string().meta({ description: 'At most 480 px wide (WebP), versioned.', example: '/api/uploads/0f3c….webp?size=thumb&v=2' }),
  mediumUrl: z.string().meta({ description: 'At most 960 px wide (WebP), versioned; the display image until the photo has one.' }),
  displayUrl: z.string().meta({ description: 'At most 2048 px wide (WebP), versioned.' }),
};

/** What anyone may see of an approved photo: the gallery's cards and dialog (spec §2). */
export const galleryPhoto = z
  .object({
    id: z.number().int(),
    userId: z.string(),
    filename: z.string(),
    description: z.string().nullable(),
    altText: altText,
    status: z.literal('approved'),
    averageRating: z.number(),
    voteCount: z.number().int(),
    createdAt: timestamp,
    approvedAt: timestamp,
    /** Pixel size of the original after rotation; 0 when unknown. */
    width: z.number().int(),
    height: z.number().int(),
    imageVersion: z.number().int(),
    ...imageUrls,
    user: uploader.nullable(),
  })
  .meta({ id: 'GalleryPhoto' });

/** A photo as its owner and admins see it (spec §3), at any status, with its bars and original. */
export const photo = z
  .object({
    id: z.number().int(),
    userId: z.string(),
    filename: z.string(),
    originalName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    description: z.string().nullable(),
    altText: altText,
    status: photoStatus,
    underReview: z.boolean().meta({ description: 'Pending again after it was approved: members reported it and an admin will decide.' }),
    resubmitUntil: timestamp.meta({ description: `Rejected, and its owner may fix and resubmit it until then (once, within ${RESUBMIT.windowDays} days); null otherwise.` }),
    resubmission: z
      .object({
        resubmittedAt: timestamp,
        note: z.string().nullable(),
        previousRejectionReason: z.string().nullable(),
        descriptionBefore: z.string().nullable(),
        privacyBarsBefore: z.array(privacyBar),
      })
      .nullable()
      .meta({ id: 'Resubmission', description: "The owner's resubmission after a rejection, with what the photo was when it was rejected." }),
    finalRejection: z.boolean().meta({ description: 'Rejected after a resubmission: it cannot be resubmitted again.' }),
    approvedBy: z.string().nullable(),
    approvedAt: timestamp,
    rejectionReason: z.string().nullable(),
    privacyBars: z.array(privacyBar),
    storageType: z.enum(['local', 'drive', 's3']),
    createdAt: timestamp,
    updatedAt: timestamp,
    averageRating: z.number(),
    voteCount: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    imageVersion: z.number().int(),
    ...imageUrls,
    originalUrl: z.string().meta({ description: 'The original (metadata stripped), for its owner and admins only.' }),
    user: uploader.nullable(),
  })
  .meta({ id: 'Photo' });

/** An entry of GET /api/photos: the newest approved photos, just enough to show a preview. */
export const photoPreview = z
  .object({ id: z.number().int(), filename: z.string(), description: z.string().nullable(), altText: altText, ...imageUrls })
  .meta({ id: 'PhotoPreview' });

/** The description at upload: optional, trimmed; blank means none. */
export const uploadDescription = z.string().trim().max(DESCRIPTION.maxLength, DESCRIPTION.tooLong);

/** Alt text, at upload or edited: optional, trimmed; blank means none. */
export const altTextInput = z.string({ error: ALT_TEXT.tooLong }).trim().max(ALT_TEXT.maxLength, ALT_TEXT.tooLong);

/** POST /api/photos, multipart: the file as `photo`, and an optional description (before or after it). */
export const uploadForm = z
  .object({
    photo: z.string().meta({ format: 'binary', description: `One JPEG, PNG, HEIC/HEIF or WebP image of at most ${UPLOAD.maxBytes / 1024 / 1024} MB.` }),
    description: uploadDescription.optional(),
    altText: altTextInput.optional().meta({ description: 'What the photo shows, for people who cannot see it (before or after the file).' }),
  })
  .meta({ id: 'PhotoUpload' });

export const uploadedPhoto = z.object({ id: z.number().int(), filename: z.string() }).meta({ id: 'UploadedPhoto' });

/** Spec §7: PATCH /api/photos/{id}. */
/** The owner's note to the admins with a resubmission; blank is none. */
export const resubmissionBody = z
  .object({ note: z.string({ error: RESUBMIT.noteTooLong }).trim().max(RESUBMIT.noteMaxLength, RESUBMIT.noteTooLong).nullish() })
  .meta({ id: 'ResubmissionRequest' });

export const descriptionEdit = z
  .object({
    description: requiredText(DESCRIPTION),
    altText: altTextInput.nullish().meta({ description: 'Left out: unchanged; null or blank: none.' }),
  })
  .meta({ id: 'DescriptionEdit' });
