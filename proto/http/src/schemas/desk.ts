import { z } from 'zod';
import { DESK, REASON_TEMPLATES, REJECTION_REASON, REVERSAL, REVIEW_FIGURES } from '../rules.js';
import { requiredText, timestamp, wholeNumber } from '../fields.js';
import { adminPhoto } from './moderation.js';
import { photo } from './photos.js';
import { reportCategory, reportGroup } from './reports.js';

const photoIds = (max: number, message: string) => z.array(z.number({ error: message }).int(message).min(1, message), { error: message }).max(max, message);

/** "Review next": the photos this desk is done with for now are left out; those it skipped are released to others. */
export const deskNextBody = z
  .object({
    skipped: photoIds(DESK.maxExcluded, DESK.tooManyExcluded)
      .default([])
      .meta({ description: 'Photos skipped at this desk: released, and not offered to it again.' }),
    deciding: photoIds(DESK.maxExcluded, DESK.tooManyExcluded)
      .default([])
      .meta({ description: 'Photos decided at this desk whose decision is not sent yet (it can still be undone): they stay claimed.' }),
  })
  .meta({ id: 'DeskNextRequest' });

export const deskClaim = z
  .object({ photoId: z.number().int(), expiresAt: timestamp.meta({ description: 'Renew before then (every 30 s) to keep it.' }) })
  .meta({ id: 'DeskClaim' });

export const deskItem = z
  .object({
    photo: adminPhoto,
    kind: z.enum(DESK.kinds).meta({ description: 'A new upload, its owner\'s resubmission after a rejection, or a photo members reported back into review.' }),
    waitingSince: timestamp.meta({ description: 'Uploaded, resubmitted or held, whichever is latest.' }),
    reporters: z.number().int().meta({ description: 'Distinct members with an open report on the photo.' }),
    reports: z.array(reportGroup).meta({ description: 'The open reports by category, most first.' }),
    claim: deskClaim,
  })
  .meta({ id: 'DeskItem' });

export const deskNext = z
  .object({
    item: deskItem.nullable().meta({ description: 'Null when nothing is waiting that another admin has not claimed.' }),
    waiting: z.number().int().meta({ description: 'Photos waiting for review that no other admin has claimed, this one included.' }),
  })
  .meta({ id: 'DeskNext' });

export const bulkApprovalBody = z
  .object({
    photoIds: z
      .array(z.number({ error: DESK.bulkEmpty }).int(DESK.bulkEmpty).min(1, DESK.bulkEmpty), { error: DESK.bulkEmpty })
      .min(1, DESK.bulkEmpty)
      .max(DESK.bulkMax, DESK.bulkTooMany),
  })
  .meta({ id: 'BulkApproval' });

export const bulkApprovalResult = z
  .object({
    approved: z.array(z.number().int()),
    failed: z.array(z.object({ photoId: z.number().int(), message: z.string() })).meta({ description: 'Photos not approved, each with why (decided meanwhile, claimed by another admin, gone).' }),
  })
  .meta({ id: 'BulkApprovalResult' });

export const reversalBody = z
  .object({
    decision: z.enum(REVERSAL.decisions, { error: REVERSAL.decisionInvalid }),
    reason: z.string({ error: REVERSAL.reasonRequired }).trim().min(1, REVERSAL.reasonRequired).max(REJECTION_REASON.maxLength, REJECTION_REASON.tooLong),
  })
  .meta({ id: 'DecisionReversal' });

export const reversalResult = photo;

export const reasonTemplateBody = z
  .object({
    label: requiredText({ maxLength: REASON_TEMPLATES.labelMaxLength, required: REASON_TEMPLATES.labelRequired, tooLong: REASON_TEMPLATES.labelTooLong }),
    text: requiredText({ maxLength: REJECTION_REASON.maxLength, required: REJECTION_REASON.required, tooLong: REJECTION_REASON.tooLong }).meta({
      description: 'The reason as the photo\'s owner reads it.',
    }),
  })
  .meta({ id: 'ReasonTemplateInput' });

export const reasonTemplate = z
  .object({ id: z.string(), label: z.string(), text: z.string(), createdAt: timestamp, updatedAt: timestamp })
  .meta({ id: 'ReasonTemplate' });

export const reasonTemplateList = z.object({ templates: z.array(reasonTemplate) }).meta({ id: 'ReasonTemplateList' });

export const reasonTemplateParams = z.object({ id: z.string().min(1).max(100).meta({ description: 'The template id.' }) });

export const reviewFiguresQuery = z.object({
  days: wholeNumber(REVIEW_FIGURES.daysInvalid, REVIEW_FIGURES.maxDays)
    .default(REVIEW_FIGURES.defaultDays)
    .meta({ description: `The last so many days (UTC), at most ${REVIEW_FIGURES.maxDays}.` }),
});

export const reviewFigures = z
  .object({
    days: z.number().int(),
    since: timestamp,
    decisions: z
      .array(
        z.object({
          adminId: z.string(),
          name: z.string().nullable().meta({ description: 'Null when the account is gone.' }),
          total: z.number().int(),
          perDay: z.array(z.object({ day: z.iso.date(), count: z.number().int() })).meta({ description: 'Days with decisions only, oldest first.' }),
        }),
      )
      .meta({ description: 'Approvals, rejections, removals, reinstatements and report dismissals per admin, most first.' }),
    medianUploadToDecisionSeconds: z.number().nullable().meta({ description: 'Over approvals and rejections in the period; null when there were none.' }),
    measuredDecisions: z.number().int(),
    reportsByCategory: z
      .array(z.object({ category: reportCategory, total: z.number().int(), open: z.number().int(), dismissed: z.number().int(), removed: z.number().int() }))
      .meta({ description: 'Reports made in the period, every category.' }),
    reportersMostlyDismissed: z
      .array(z.object({ userId: z.string(), name: z.string().nullable(), decided: z.number().int(), dismissed: z.number().int() }))
      .meta({
        description: `Members with at least ${REVIEW_FIGURES.minDecidedReports} decided reports of whom at least ${REVIEW_FIGURES.mostlyDismissedShare * 100}% were dismissed (all time), the highest share first.`,
      }),
  })
  .meta({ id: 'ReviewFigures' });

