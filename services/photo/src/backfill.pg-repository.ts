import { keysetPages, type Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { PhotoStatus } from './photo.repository.js';

/** A photo's current state as its events carry it (PhotoState), with the time of its review decision. */
export interface BackfillPhoto {
  id: number;
  userId: string;
  filename: string;
  status: PhotoStatus;
  description: string | null;
  createdAt: Date;
  approvedAt: Date | null;
  reviewedAt: Date | null;
  version: number;
}

type Pool = Database<PrismaClient>['pool'];

interface BackfillRow {
  id: string;
  user_id: string;
  filename: string;
  status: PhotoStatus;
  description: string | null;
  created_at: Date;
  approved_at: Date | null;
  reviewed_at: Date | null;
  version: string;
}

// Keyset pagination on the primary key: every page is one index range scan, however far the stream has gone.
const PAGE_SQL = `
  SELECT "id"::text AS "id", "user_id", "filename", "status"::text AS "status", "description", "created_at", "approved_at", "reviewed_at",
         "version"::text AS "version"
  FROM "photo"."photos" WHERE "id" > $1::bigint ORDER BY "id" LIMIT $2::int`;

/**
 * Every photo for a read model rebuilt elsewhere (the stats service's), read a page at a time on the pool. A page is
 * read only when the previous one has been taken, so a slow reader holds back the reads, not memory. Each page is its
 * own snapshot: a photo changed meanwhile is sent as it is when its page is read, and its event follows as usual.
 */
export class PgPhotoBackfill {
  constructor(
    private readonly pool: Pool,
    private readonly pageSize = 500,
  ) {}

  async *pages(): AsyncIterable<BackfillPhoto[]> {
    const readPage = async (after = 0) =>
      (await this.pool.query<BackfillRow>({ name: 'photo_backfill_page', text: PAGE_SQL, values: [after, this.pageSize] })).rows;
    for await (const rows of keysetPages(readPage, (row) => Number(row.id), this.pageSize)) yield rows.map(toBackfillPhoto);
  }
}

const toBackfillPhoto = (r: BackfillRow): BackfillPhoto => ({
  id: Number(r.id),
  userId: r.user_id,
  filename: r.filename,
  status: r.status,
  description: r.description,
  createdAt: r.created_at,
  approvedAt: r.approved_at,
  reviewedAt: r.reviewed_at,
  version: Number(r.version),
});
