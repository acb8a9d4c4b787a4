import { z } from 'zod';
import { PAGES, REJECTION_REASON, REVIEW } from '../rules.js';
import { pageQuery, timestamp } from '../fields.js';
import { photo, photoStatus } from './photos.js';

export const reviewListParams = z.object({ list: z.string().meta({ description: 'The list.', enum: [...REVIEW.lists] }) });
export const reviewListQuery = pageQuery(PAGES.limits.adminPhotos);

/** Spec §7: approve, or reject with a reason (required for a rejection; the moderation service checks it). */
export const reviewBody = z
  .object({
    status: z.enum(REVIEW.statuses, { error: REVIEW.statusInvalid }),
    rejectionReason: z.string().max(REJECTION_REASON.maxLength, REJECTION_REASON.tooLong).nullish(),
  })
  .meta({ id: 'ReviewDecision' });

export const auditEntry = z
  .object({
    id: z.string(),
    action: z.string().meta({ description: 'approve, reject or delete' }),
    actorId: z.string(),
    reason: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'AuditEntry' });

export const reviewMarks = z
  .object({
    similarRejected: z
      .object({ photoId: z.number().int(), rejectionReason: z.string(), distance: z.number().int(), sameUploader: z.boolean(), rejectedAt: timestamp })
      .nullable()
      .meta({ description: "The closest earlier rejected photo whose perceptual hash is within 6 bits of this one's." }),
    duplicateOf: z
      .object({ photoId: z.number().int(), status: photoStatus })
      .nullable()
      .meta({ description: "The uploader's own earlier photo with exactly the same bytes." }),
  })
  .meta({ id: 'ReviewMarks' });

/** A photo as the admin's review list shows it: everything the owner sees, its repeat-upload marks and its audit entries. */
export const adminPhoto = photo.extend({ reviewMarks: reviewMarks.nullable(), auditLog: z.array(auditEntry) }).meta({ id: 'AdminPhoto' });

export const adminPhotoPage = z
  .object({ photos: z.array(adminPhoto), total: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'AdminPhotoPage' });

export const cleanupParams = z.object({ kind: z.string().meta({ description: 'What to clean up.', enum: [...REVIEW.cleanups] }) });

export const cleanupResult = z
  .object({ message: z.string(), removed: z.number().int(), failed: z.number().int() })
  .meta({ id: 'CleanupResult' });
