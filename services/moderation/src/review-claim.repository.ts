import type { Prisma, PrismaClient } from './generated/prisma/client.js';

/** A photo claimed at an admin's review desk, until `expiresAt`. */
export interface ReviewClaim {
  photoId: number;
  adminId: string;
  expiresAt: Date;
}

/**
 * The review desk's claims, one row per photo. Times are the database's clock, so replicas whose clocks drift still
 * agree on when a claim has ended.
 */
export interface ReviewClaimRepository {
  /**
   * Claims the photo for `adminId` for `seconds`, unless another admin's claim on it is still running; the claim, or
   * null. One statement (an upsert whose update is conditional), so of two admins taking the same photo at once the
   * second waits for the first to commit and then finds the photo claimed.
   */
  take(photoId: number, adminId: string, seconds: number): Promise<ReviewClaim | null>;
  /** Extends `adminId`'s claim on the photo by `seconds` from now; null when the claim is not theirs any more. */
  renew(photoId: number, adminId: string, seconds: number): Promise<ReviewClaim | null>;
  /** Ends `adminId`'s claims on these photos (those of other admins stay). */
  release(adminId: string, photoIds: number[]): Promise<void>;
  /** Ends `adminId`'s claims on every photo but these. */
  releaseAllBut(adminId: string, keep: number[]): Promise<void>;
  /** Photos claimed, with the claim still running, by an admin other than `adminId`. */
  claimedByOthers(adminId: string): Promise<number[]>;
  /** Who holds a running claim on the photo, if anyone. */
  holder(photoId: number): Promise<string | null>;
  /** Forgets the photo's claim, whoever held it (the photo was decided). */
  settle(photoId: number): Promise<void>;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** Ended claims are kept this long (a late renewal then still learns it lost the photo), then removed. */
const KEEP_ENDED_MS = 60 * 60 * 1000;

export class PrismaReviewClaimRepository implements ReviewClaimRepository {
  constructor(private readonly db: Db) {}

  async take(photoId: number, adminId: string, seconds: number): Promise<ReviewClaim | null> {
    const rows = await this.db.$queryRaw<ClaimRow[]>`
      INSERT INTO "moderation"."review_claims" ("photo_id", "admin_id", "claimed_at", "expires_at")
      VALUES (${photoId}, ${adminId}, clock_timestamp(), clock_timestamp() + make_interval(secs => ${seconds}))
      ON CONFLICT ("photo_id") DO UPDATE
        SET "admin_id" = EXCLUDED."admin_id", "claimed_at" = EXCLUDED."claimed_at", "expires_at" = EXCLUDED."expires_at"
        WHERE "review_claims"."expires_at" <= clock_timestamp() OR "review_claims"."admin_id" = EXCLUDED."admin_id"
      RETURNING "photo_id", "admin_id", "expires_at"`;
    // Now and then, the claims that ended long ago go (the table holds one row per photo ever claimed otherwise).
    if (Math.random() < 0.05) {
      await this.db.$executeRaw`DELETE FROM "moderation"."review_claims" WHERE "expires_at" < clock_timestamp() - make_interval(secs => ${KEEP_ENDED_MS / 1000})`;
    }
    return rows[0] ? toClaim(rows[0]) : null;
  }

  async renew(photoId: number, adminId: string, seconds: number): Promise<ReviewClaim | null> {
    const rows = await this.db.$queryRaw<ClaimRow[]>`
      UPDATE "moderation"."review_claims" SET "expires_at" = clock_timestamp() + make_interval(secs => ${seconds})
      WHERE "photo_id" = ${photoId} AND "admin_id" = ${adminId}
      RETURNING "photo_id", "admin_id", "expires_at"`;
    return rows[0] ? toClaim(rows[0]) : null;
  }

  async release(adminId: string, photoIds: number[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.db.reviewClaim.deleteMany({ where: { adminId, photoId: { in: photoIds.map(BigInt) } } });
  }

  async releaseAllBut(adminId: string, keep: number[]): Promise<void> {
    await this.db.reviewClaim.deleteMany({ where: { adminId, photoId: { notIn: keep.map(BigInt) } } });
  }

  async claimedByOthers(adminId: string): Promise<number[]> {
    const rows = await this.db.$queryRaw<{ photo_id: bigint }[]>`
      SELECT "photo_id" FROM "moderation"."review_claims" WHERE "expires_at" > clock_timestamp() AND "admin_id" <> ${adminId}`;
    return rows.map((row) => Number(row.photo_id));
  }

  async holder(photoId: number): Promise<string | null> {
    const rows = await this.db.$queryRaw<{ admin_id: string }[]>`
      SELECT "admin_id" FROM "moderation"."review_claims" WHERE "photo_id" = ${photoId} AND "expires_at" > clock_timestamp()`;
    return rows[0]?.admin_id ?? null;
  }

  async settle(photoId: number): Promise<void> {
    await this.db.reviewClaim.deleteMany({ where: { photoId: BigInt(photoId) } });
  }
}

interface ClaimRow {
  photo_id: bigint;
  admin_id: string;
  expires_at: Date;
}

function toClaim(row: ClaimRow): ReviewClaim {
  return { photoId: Number(row.photo_id), adminId: row.admin_id, expiresAt: row.expires_at };
}
