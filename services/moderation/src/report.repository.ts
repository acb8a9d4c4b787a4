import type { ReportCategory } from '@snapcracks/http-contract';
import { makeEvent, type Outbox } from '@snapcracks/kit';
import { ReportsDecided } from '@snapcracks/proto/events/v1';
import { Prisma, type PrismaClient, type PhotoReport as Row } from './generated/prisma/client.js';

export type ReportStatus = 'open' | 'dismissed' | 'removed';

/** One member's report of one photo. */
export interface Report {
  id: string;
  photoId: number;
  reporterId: string;
  category: ReportCategory;
  note: string | null;
  status: ReportStatus;
  photoOwnerId: string;
  photoDescription: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
}

export type NewReport = Pick<Report, 'id' | 'photoId' | 'reporterId' | 'category' | 'note' | 'photoOwnerId' | 'photoDescription'>;

/** A photo with open reports, as the admin's list shows it: how many members, and the reports by category. */
export interface ReportedPhotoSummary {
  photoId: number;
  reporters: number;
  groups: { category: ReportCategory; count: number; notes: string[] }[];
  firstReportedAt: Date;
  lastReportedAt: Date;
}

export type ReportedPhotoOrder = 'newest' | 'most_reported';

export interface ReportRepository {
  /** Stores an open report; false when the member already has an open report of the photo (nothing stored). */
  create(report: NewReport): Promise<boolean>;
  /** Distinct members with an open report of the photo. */
  openReporters(photoId: number): Promise<number>;
  /** The member's reports, newest first. */
  listByReporter(reporterId: string, page: { offset: number; limit: number }): Promise<{ reports: Report[]; total: number }>;
  /** Photos with open reports, in `order`, with their open reports grouped by category. */
  listReportedPhotos(order: ReportedPhotoOrder, page: { offset: number; limit: number }): Promise<{ photos: ReportedPhotoSummary[]; total: number }>;
  /** The photo's open reports: how many members, and the reports by category. */
  openReportsOf(photoId: number): Promise<Pick<ReportedPhotoSummary, 'reporters' | 'groups'>>;
  /**
   * Closes the photo's open reports made up to `at` with `status`; the number closed. A report made after the decision
   * (the photo back in the gallery, reported again) stays open even when the decision's event is handled later.
   */
  /**
   * Closes the photo's open reports made by `at` with the outcome, and announces it (moderation.reports.decided, with
   * each reporter once) in the same transaction when any closed. Answers how many it closed.
   */
  closeOpen(photoId: number, status: Exclude<ReportStatus, 'open'>, decidedBy: string, at: Date): Promise<number>;
}

/** The service's Prisma client, or the transaction client a consumer's handler runs in. */
type Db = PrismaClient | Prisma.TransactionClient;

export class PrismaReportRepository implements ReportRepository {
  constructor(
    private readonly db: Db,
    private readonly outbox: Pick<Outbox, 'enqueue' | 'nudge'>,
  ) {}

  async create(report: NewReport): Promise<boolean> {
    // The partial unique index (photo_id, reporter_id) WHERE status = 'open' is the one-open-report rule; a conflict
    // on it inserts nothing, so two reports sent at once by one member leave one.
    const inserted = await this.db.$executeRaw`
      INSERT INTO "moderation"."photo_reports" ("id", "photo_id", "reporter_id", "category", "note", "photo_owner_id", "photo_description")
      VALUES (${report.id}::uuid, ${BigInt(report.photoId)}, ${report.reporterId}, ${report.category}, ${report.note}, ${report.photoOwnerId}, ${report.photoDescription})
      ON CONFLICT ("photo_id", "reporter_id") WHERE "status" = 'open' DO NOTHING`;
    return inserted === 1;
  }

  async openReporters(photoId: number): Promise<number> {
    // One open report per member, so the open rows are the distinct members.
    return this.db.photoReport.count({ where: { photoId: BigInt(photoId), status: 'open' } });
  }

  async listByReporter(reporterId: string, { offset, limit }: { offset: number; limit: number }): Promise<{ reports: Report[]; total: number }> {
    const where = { reporterId };
    const [rows, total] = await Promise.all([
      this.db.photoReport.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
      this.db.photoReport.count({ where }),
    ]);
    return { reports: rows.map(toReport), total };
  }

  async listReportedPhotos(order: ReportedPhotoOrder, { offset, limit }: { offset: number; limit: number }): Promise<{ photos: ReportedPhotoSummary[]; total: number }> {
    const orderBy =
      order === 'most_reported' ? Prisma.sql`COUNT(*) DESC, MAX("created_at") DESC, "photo_id" DESC` : Prisma.sql`MAX("created_at") DESC, "photo_id" DESC`;
    const [page, [counted]] = await Promise.all([
      this.db.$queryRaw<{ photo_id: bigint; reporters: number; first_at: Date; last_at: Date }[]>`
        SELECT "photo_id", COUNT(*)::int AS reporters, MIN("created_at") AS first_at, MAX("created_at") AS last_at
        FROM "moderation"."photo_reports" WHERE "status" = 'open'
        GROUP BY "photo_id" ORDER BY ${orderBy} OFFSET ${offset} LIMIT ${limit}`,
      this.db.$queryRaw<{ total: number }[]>`SELECT COUNT(DISTINCT "photo_id")::int AS total FROM "moderation"."photo_reports" WHERE "status" = 'open'`,
    ]);
    if (page.length === 0) return { photos: [], total: counted?.total ?? 0 };
    const reports = await this.db.photoReport.findMany({
      where: { status: 'open', photoId: { in: page.map((row) => row.photo_id) } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { photoId: true, category: true, note: true },
    });
    const photos = page.map(
      (row): ReportedPhotoSummary => ({
        photoId: Number(row.photo_id),
        reporters: row.reporters,
        groups: groupByCategory(reports.filter((report) => report.photoId === row.photo_id)),
        firstReportedAt: row.first_at,
        lastReportedAt: row.last_at,
      }),
    );
    return { photos, total: counted?.total ?? 0 };
  }

  async openReportsOf(photoId: number): Promise<Pick<ReportedPhotoSummary, 'reporters' | 'groups'>> {
    const reports = await this.db.photoReport.findMany({
      where: { status: 'open', photoId: BigInt(photoId) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { category: true, note: true, reporterId: true },
    });
    return { reporters: new Set(reports.map((report) => report.reporterId)).size, groups: groupByCategory(reports) };
  }

  async closeOpen(photoId: number, status: Exclude<ReportStatus, 'open'>, decidedBy: string, at: Date): Promise<number> {
    const close = async (tx: Prisma.TransactionClient) => {
      const closed = await tx.$queryRaw<{ reporter_id: string }[]>`
        UPDATE "moderation"."photo_reports" SET "status" = ${status}::"moderation"."ReportStatus", "decided_by" = ${decidedBy}, "decided_at" = ${at}
        WHERE "photo_id" = ${BigInt(photoId)} AND "status" = 'open' AND "created_at" <= ${at}
        RETURNING "reporter_id"`;
      if (closed.length > 0) {
        const reporterIds = [...new Set(closed.map((row) => row.reporter_id))];
        await this.outbox.enqueue(tx, makeEvent('moderation.reports.decided', ReportsDecided, { photoId, outcome: status, reporterIds, decidedAt: at }, { source: 'moderation' }));
      }
      return closed.length;
    };
    // In a consumer's transaction already (its relay is nudged after commit), or one of its own.
    if (!('$transaction' in this.db)) return close(this.db);
    const count = await this.db.$transaction(close);
    if (count > 0) this.outbox.nudge();
    return count;
  }
}

/** Reports (newest first) by category, the largest group first; each group's notes stay newest first. */
function groupByCategory(reports: { category: string; note: string | null }[]): ReportedPhotoSummary['groups'] {
  const groups = new Map<ReportCategory, { category: ReportCategory; count: number; notes: string[] }>();
  for (const report of reports) {
    const category = report.category as ReportCategory;
    const group = groups.get(category) ?? groups.set(category, { category, count: 0, notes: [] }).get(category)!;
    group.count += 1;
    if (report.note) group.notes.push(report.note);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

function toReport(row: Row): Report {
  return {
    id: row.id,
    photoId: Number(row.photoId),
    reporterId: row.reporterId,
    category: row.category as ReportCategory,
    note: row.note,
    status: row.status,
    photoOwnerId: row.photoOwnerId,
    photoDescription: row.photoDescription,
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy,
  };
}
