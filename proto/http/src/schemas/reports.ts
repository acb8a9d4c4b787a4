import { z } from 'zod';
import { PAGES, REJECTION_REASON, REPORTS } from '../rules.js';
import { pageQuery, timestamp } from '../fields.js';
import { photo } from './photos.js';

export const reportCategory = z
  .enum(REPORTS.categories, { error: REPORTS.categoryInvalid })
  .meta({ id: 'ReportCategory', description: Object.entries(REPORTS.labels).map(([id, label]) => `\`${id}\`: ${label}`).join('; ') });

export const reportStatus = z.enum(['open', 'dismissed', 'removed']).meta({ id: 'ReportStatus' });

/** A member's report: what is wrong, and optionally why they think so. A blank note is none. */
export const reportBody = z
  .object({
    category: reportCategory,
    note: z.string({ error: REPORTS.noteTooLong }).trim().max(REPORTS.noteMaxLength, REPORTS.noteTooLong).nullish(),
  })
  .meta({ id: 'ReportSubmission' });

/** A report as its reporter sees it: never who else reported the photo. */
export const myReport = z
  .object({
    id: z.string(),
    photoId: z.number().int(),
    category: reportCategory,
    note: z.string().nullable(),
    status: reportStatus,
    createdAt: timestamp,
    decidedAt: timestamp,
    photoDescription: z.string().nullable().meta({ description: "The photo's description when it was reported." }),
  })
  .meta({ id: 'Report' });

export const reportResult = z
  .object({ report: myReport, photoHeld: z.boolean().meta({ description: 'This report took the photo out of the gallery, back to review.' }) })
  .meta({ id: 'ReportResult' });

export const myReportPage = z
  .object({ reports: z.array(myReport), total: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'ReportPage' });

export const myReportQuery = pageQuery(PAGES.limits.reports);

export const reportedPhotoQuery = pageQuery(PAGES.limits.reports).extend({
  order: z.enum(REPORTS.orders, { error: REPORTS.unknownOrder }).default('newest').meta({ description: 'The latest report first, or the most reporters first.' }),
});

export const reportGroup = z
  .object({ category: reportCategory, count: z.number().int(), notes: z.array(z.string()) })
  .meta({ id: 'ReportGroup' });

export const reportedPhoto = z
  .object({
    photoId: z.number().int(),
    photo: photo.nullable().meta({ description: 'Null when the photo is gone.' }),
    reporters: z.number().int().meta({ description: 'Distinct members with an open report.' }),
    groups: z.array(reportGroup).meta({ description: 'The open reports by category, most first; notes newest first.' }),
    firstReportedAt: timestamp,
    lastReportedAt: timestamp,
  })
  .meta({ id: 'ReportedPhoto' });

export const reportedPhotoPage = z
  .object({ photos: z.array(reportedPhoto), total: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'ReportedPhotoPage' });

/** Dismiss the open reports (the photo stays or returns to the gallery) or remove the photo, with a reason its owner sees. */
export const reportDecisionBody = z
  .object({
    decision: z.enum(REPORTS.decisions, { error: REPORTS.decisionInvalid }),
    reason: z.string().trim().max(REJECTION_REASON.maxLength, REJECTION_REASON.tooLong).nullish(),
  })
  .refine((body) => body.decision !== 'remove' || !!body.reason, { message: REPORTS.removalReasonRequired, path: ['reason'] })
  .meta({ id: 'ReportDecision' });

export const reportDecisionResult = z
  .object({ photo, closed: z.number().int().meta({ description: 'Open reports the decision closed.' }) })
  .meta({ id: 'ReportDecisionResult' });
