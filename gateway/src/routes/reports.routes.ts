import type { FastifyInstance } from 'fastify';
import { routes, type Report as ReportJson, type ReportCategory, type ReportStatus as ReportStatusJson } from '@snapcracks/http-contract';
import { ReportDecision, ReportStatus, ReportedPhotoOrder, type Report } from '@snapcracks/proto/moderation/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { toPhotoJson } from '../photo-json.js';

const STATUS_NAMES: Record<ReportStatus, ReportStatusJson> = {
  [ReportStatus.REPORT_STATUS_UNSPECIFIED]: 'open',
  [ReportStatus.REPORT_STATUS_OPEN]: 'open',
  [ReportStatus.REPORT_STATUS_DISMISSED]: 'dismissed',
  [ReportStatus.REPORT_STATUS_REMOVED]: 'removed',
};

/** A report as its reporter reads it (also in their copy of their data). */
export function toReportJson(report: Report): ReportJson {
  return {
    id: report.id,
    photoId: report.photoId,
    category: report.category as ReportCategory,
    note: report.note ?? null,
    status: STATUS_NAMES[report.status],
    createdAt: report.createdAt?.toISOString() ?? null,
    decidedAt: report.decidedAt?.toISOString() ?? null,
    photoDescription: report.photoDescription ?? null,
  };
}

/**
 * Members' reports of photos and the admins' decisions on them. The moderation service owns the reports and asks the
 * photo service to hold, return or remove a photo; each request makes one call to it.
 */
export default async function reportRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const serve = contractRoutes(app);

  serve(routes.reportPhoto, async (request, reply) => {
    const caller = await request.requireMember();
    const { category, note } = request.body;
    const { report, photoHeld } = await clients.moderation.call.reportPhoto({ photoId: request.params.id, category, ...(note ? { note } : {}) }, { caller });
    if (!report) throw new Error('The moderation service answered without a report');
    return reply.code(201).send({ report: toReportJson(report), photoHeld });
  });

  serve(routes.myReports, async (request, reply) => {
    const caller = await request.requireMember();
    const { page, limit } = request.query;
    const answer = await clients.moderation.call.listMyReports({ page: { page, limit } }, { caller });
    reply.header('cache-control', 'private, no-store');
    return { reports: answer.reports.map(toReportJson), total: answer.total, totalPages: answer.totalPages };
  });

  serve(routes.reportedPhotos, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { page, limit, order } = request.query;
    const answer = await clients.moderation.call.listReportedPhotos(
      { page: { page, limit }, order: order === 'most-reported' ? ReportedPhotoOrder.REPORTED_PHOTO_ORDER_MOST_REPORTED : ReportedPhotoOrder.REPORTED_PHOTO_ORDER_NEWEST },
      { caller },
    );
    reply.header('cache-control', 'private, no-store');
    return {
      photos: answer.photos.map((reported) => ({
        photoId: reported.photoId,
        photo: reported.photo ? toPhotoJson(reported.photo) : null,
        reporters: reported.reporters,
        groups: reported.groups.map((group) => ({ category: group.category as ReportCategory, count: group.count, notes: group.notes })),
        firstReportedAt: reported.firstReportedAt?.toISOString() ?? null,
        lastReportedAt: reported.lastReportedAt?.toISOString() ?? null,
      })),
      total: answer.total,
      totalPages: answer.totalPages,
    };
  });

  serve(routes.decideReports, async (request) => {
    const caller = await request.requireAdmin();
    const { decision, reason } = request.body;
    const { photo, closed } = await clients.moderation.call.decideReports(
      {
        photoId: request.params.id,
        decision: decision === 'dismiss' ? ReportDecision.REPORT_DECISION_DISMISS : ReportDecision.REPORT_DECISION_REMOVE,
        ...(reason ? { reason } : {}),
      },
      { caller },
    );
    if (!photo) throw new Error('The moderation service answered without a photo');
    return { photo: toPhotoJson(photo), closed };
  });
}
