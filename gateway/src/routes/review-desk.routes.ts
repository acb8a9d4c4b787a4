import type { FastifyInstance } from 'fastify';
import { routes, type DeskItem, type ReportCategory, type ReviewFigures } from '@snapcracks/http-contract';
import { Reversal, type ReasonTemplate } from '@snapcracks/proto/moderation/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { toPhotoJson } from '../photo-json.js';
import { toAdminPhotoJson } from './admin-photos.routes.js';
import type { UserDirectory } from '../user-directory.js';
import { memberName } from '../member-name.js';

function toTemplateJson(template: ReasonTemplate | undefined) {
  if (!template) throw new Error('The moderation service answered without a template');
  return {
    id: template.id,
    label: template.label,
    text: template.text,
    createdAt: template.createdAt?.toISOString() ?? null,
    updatedAt: template.updatedAt?.toISOString() ?? null,
  };
}

/**
 * The review desk (claims, "Review next"), bulk approval, reversed decisions, reason templates and the reviewer
 * figures. The moderation service keeps the claims, the audit log and the templates; each request makes one call to
 * it (the figures also read the named accounts through the cached user directory).
 */
export default async function reviewDeskRoutes(app: FastifyInstance, { clients, users }: { clients: Clients; users: UserDirectory }) {
  const serve = contractRoutes(app);

  serve(routes.deskNext, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { skipped, deciding } = request.body;
    const answer = await clients.moderation.call.claimNextReview({ skipped, deciding }, { caller });
    reply.header('cache-control', 'private, no-store');
    const { photo, claim } = answer;
    if (!photo || !claim) return { item: null, waiting: answer.waiting };
    const item: DeskItem = {
      photo: toAdminPhotoJson(photo, answer.actions),
      kind: photo.underReview ? 'reported' : photo.resubmission ? 'resubmission' : 'new',
      waitingSince: (photo.waitingSince ?? photo.createdAt)?.toISOString() ?? null,
      reporters: answer.reporters,
      reports: answer.reports.map((group) => ({ category: group.category as ReportCategory, count: group.count, notes: group.notes })),
      claim: { photoId: claim.photoId, expiresAt: claim.expiresAt?.toISOString() ?? null },
    };
    return { item, waiting: answer.waiting };
  });

  serve(routes.renewDeskClaim, async (request) => {
    const caller = await request.requireAdmin();
    const { claim } = await clients.moderation.call.renewReviewClaim({ photoId: request.params.id }, { caller });
    if (!claim) throw new Error('The moderation service answered without a claim');
    return { photoId: claim.photoId, expiresAt: claim.expiresAt?.toISOString() ?? null };
  });

  serve(routes.releaseDeskClaim, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.moderation.call.releaseReviewClaim({ photoId: request.params.id }, { caller });
    return reply.code(204).send();
  });

  serve(routes.bulkApprove, async (request) => {
    const caller = await request.requireAdmin();
    const { approved, failed } = await clients.moderation.call.approvePhotos({ photoIds: request.body.photoIds }, { caller });
    return { approved, failed: failed.map(({ photoId, message }) => ({ photoId, message })) };
  });

  serve(routes.reverseDecision, async (request) => {
    const caller = await request.requireAdmin();
    const { decision, reason } = request.body;
    const { photo } = await clients.moderation.call.reverseDecision(
      { photoId: request.params.id, reversal: decision === 'approve' ? Reversal.REVERSAL_APPROVE : Reversal.REVERSAL_REMOVE, reason },
      { caller },
    );
    if (!photo) throw new Error('The moderation service answered without a photo');
    return toPhotoJson(photo);
  });

  serve(routes.reasonTemplates, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { templates } = await clients.moderation.call.listReasonTemplates({}, { caller });
    reply.header('cache-control', 'private, no-store');
    return { templates: templates.map(toTemplateJson) };
  });

  serve(routes.createReasonTemplate, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { template } = await clients.moderation.call.createReasonTemplate(request.body, { caller });
    return reply.code(201).send(toTemplateJson(template));
  });

  serve(routes.updateReasonTemplate, async (request) => {
    const caller = await request.requireAdmin();
    const { template } = await clients.moderation.call.updateReasonTemplate({ id: request.params.id, ...request.body }, { caller });
    return toTemplateJson(template);
  });

  serve(routes.deleteReasonTemplate, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.moderation.call.deleteReasonTemplate({ id: request.params.id }, { caller });
    return reply.code(204).send();
  });

  serve(routes.reviewFigures, async (request, reply) => {
    const caller = await request.requireAdmin();
    const answer = await clients.moderation.call.getReviewFigures({ days: request.query.days }, { caller });
    const ids = [...new Set([...answer.decisions.map((d) => d.adminId), ...answer.reportersMostlyDismissed.map((r) => r.userId)])];
    const accounts = new Map(await Promise.all(ids.map(async (id) => [id, await users.get(id).catch(() => null)] as const)));
    reply.header('cache-control', 'private, no-store');
    const figures: ReviewFigures = {
      days: answer.days,
      since: answer.since?.toISOString() ?? null,
      decisions: answer.decisions.map((d) => ({ adminId: d.adminId, name: memberName(accounts.get(d.adminId) ?? null), total: d.total, perDay: d.perDay })),
      medianUploadToDecisionSeconds: answer.medianUploadToDecisionSeconds ?? null,
      measuredDecisions: answer.measuredDecisions,
      reportsByCategory: answer.reportsByCategory.map((c) => ({ ...c, category: c.category as ReportCategory })),
      reportersMostlyDismissed: answer.reportersMostlyDismissed.map((r) => ({ ...r, name: memberName(accounts.get(r.userId) ?? null) })),
    };
    return figures;
  });
}
