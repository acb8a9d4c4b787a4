import { makeEvent, type Outbox, type SqlClient } from '@snapcracks/kit';
import { NotificationCreated } from '@snapcracks/proto/events/v1';
import type { NotificationKind } from '@snapcracks/http-contract';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** A notice to make: for whom, what, and what made it (the same `dedupeKey` twice makes one notice). */
export interface NewNotice {
  userId: string;
  kind: NotificationKind;
  photoId: number | null;
  title: string;
  body: string;
  dedupeKey: string;
}

export interface Notice {
  id: number;
  userId: string;
  kind: NotificationKind;
  photoId: number | null;
  title: string;
  body: string;
  read: boolean;
  createdAt: Date;
}

export interface NoticeSettings {
  email: boolean;
  push: boolean;
}

export const DEFAULT_SETTINGS: NoticeSettings = { email: true, push: true };

type Db = PrismaClient | Prisma.TransactionClient;
type Row = Omit<Prisma.NotificationGetPayload<object>, 'id' | 'photoId'> & { id: bigint | string; photoId: bigint | string | null };

const toNotice = (row: Row): Notice => ({
  id: Number(row.id),
  userId: row.userId,
  kind: row.kind as NotificationKind,
  photoId: row.photoId === null ? null : Number(row.photoId),
  title: row.title,
  body: row.body,
  read: row.readAt !== null,
  createdAt: row.createdAt,
});

/**
 * Makes the notices not made before (by member and dedupe key), each announced as support.notification.created in the
 * same transaction; answers those it made. Raw SQL, so a batch consumer's transaction on the pool can use it too.
 */
export async function addNotices(tx: SqlClient, outbox: Pick<Outbox, 'enqueue'>, notices: NewNotice[]): Promise<Notice[]> {
  const made: Notice[] = [];
  for (const notice of notices) {
    const rows = await tx.$queryRawUnsafe<Row[]>(
      `INSERT INTO "support"."notifications" ("user_id", "kind", "photo_id", "title", "body", "dedupe_key")
       VALUES ($1, $2, $3::bigint, $4, $5, $6)
       ON CONFLICT ("user_id", "dedupe_key") DO NOTHING
       RETURNING "id"::text AS "id", "user_id" AS "userId", "kind", "photo_id"::text AS "photoId", "title", "body", "dedupe_key" AS "dedupeKey", "read_at" AS "readAt", "created_at" AS "createdAt"`,
      notice.userId,
      notice.kind,
      notice.photoId === null ? null : String(notice.photoId),
      notice.title,
      notice.body,
      notice.dedupeKey,
    );
    if (!rows[0]) continue;
    const stored = toNotice(rows[0]);
    await outbox.enqueue(
      tx,
      makeEvent(
        'support.notification.created',
        NotificationCreated,
        { id: stored.id, userId: stored.userId, kind: stored.kind, photoId: stored.photoId ?? undefined, title: stored.title, body: stored.body, createdAt: stored.createdAt },
        { source: 'support' },
      ),
    );
    made.push(stored);
  }
  return made;
}

/** The owners and descriptions of these photos, as the photo events told them. */
export async function notifiedPhotos(tx: SqlClient, photoIds: number[]): Promise<Map<number, { ownerId: string; description: string | null }>> {
  if (photoIds.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<{ photo_id: string; owner_id: string; description: string | null }[]>(
    `SELECT "photo_id"::text AS "photo_id", "owner_id", "description" FROM "support"."notified_photos" WHERE "photo_id" = ANY($1::bigint[])`,
    photoIds.map(String),
  );
  return new Map(rows.map((r) => [Number(r.photo_id), { ownerId: r.owner_id, description: r.description }]));
}

/**
 * The support service's notices, in a consumer's transaction (writes) or on the client (a member's reads and
 * changes). Each notice made is announced as support.notification.created in the same transaction, so every gateway
 * replica pushes it to the member's open streams, and the email consumer sends it.
 */
export class NotificationStore {
  constructor(
    private readonly db: Db,
    private readonly outbox: Pick<Outbox, 'enqueue'>,
  ) {}

  /** Makes the notices not made before (by member and dedupe key); answers those it made. */
  add(notices: NewNotice[]): Promise<Notice[]> {
    return addNotices(this.db, this.outbox, notices);
  }

  async page(userId: string, offset: number, limit: number): Promise<{ notices: Notice[]; total: number; unread: number }> {
    const [rows, total, unread] = await Promise.all([
      this.db.notification.findMany({ where: { userId }, orderBy: { id: 'desc' }, skip: offset, take: limit }),
      this.db.notification.count({ where: { userId } }),
      this.unread(userId),
    ]);
    return { notices: rows.map(toNotice), total, unread };
  }

  /** The member's notices after `afterId`, oldest first: what a stream missed while it was away. */
  async after(userId: string, afterId: number, limit: number): Promise<Notice[]> {
    const rows = await this.db.notification.findMany({ where: { userId, id: { gt: BigInt(afterId) } }, orderBy: { id: 'asc' }, take: limit });
    return rows.map(toNotice);
  }

  unread(userId: string): Promise<number> {
    return this.db.notification.count({ where: { userId, readAt: null } });
  }

  /** Marks the member's notice read; false when they have no such notice. */
  async markRead(userId: string, id: number): Promise<boolean> {
    const found = await this.db.notification.findFirst({ where: { id: BigInt(id), userId }, select: { id: true } });
    if (!found) return false;
    await this.db.notification.updateMany({ where: { id: BigInt(id), userId, readAt: null }, data: { readAt: new Date() } });
    return true;
  }

  async markAllRead(userId: string): Promise<void> {
    await this.db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: new Date() } });
  }

  async settings(userId: string): Promise<NoticeSettings> {
    const row = await this.db.notificationSettings.findUnique({ where: { userId } });
    return row ? { email: row.email, push: row.push } : { ...DEFAULT_SETTINGS };
  }

  async updateSettings(userId: string, change: Partial<NoticeSettings>): Promise<NoticeSettings> {
    const row = await this.db.notificationSettings.upsert({
      where: { userId },
      create: { userId, ...DEFAULT_SETTINGS, ...change },
      update: change,
    });
    return { email: row.email, push: row.push };
  }

  /** Keeps a photo's owner and description, unless a newer version is stored. */
  async savePhoto(photo: { photoId: number; ownerId: string; description: string | null; version: number }): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO "support"."notified_photos" ("photo_id", "owner_id", "description", "version")
      VALUES (${BigInt(photo.photoId)}, ${photo.ownerId}, ${photo.description}, ${BigInt(photo.version)})
      ON CONFLICT ("photo_id") DO UPDATE SET "owner_id" = EXCLUDED."owner_id", "description" = EXCLUDED."description", "version" = EXCLUDED."version"
      WHERE "notified_photos"."version" < EXCLUDED."version"`;
  }

  async forgetPhoto(photoId: number): Promise<void> {
    await this.db.notifiedPhoto.deleteMany({ where: { photoId: BigInt(photoId) } });
  }

  /** Keeps a member's email address and name for email notices, unless newer ones are stored. */
  async saveRecipient(recipient: { userId: string; email: string | null; name: string | null; updatedAt: Date }): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO "support"."notification_recipients" ("user_id", "email", "name", "updated_at")
      VALUES (${recipient.userId}, ${recipient.email}, ${recipient.name}, ${recipient.updatedAt})
      ON CONFLICT ("user_id") DO UPDATE SET "email" = EXCLUDED."email", "name" = EXCLUDED."name", "updated_at" = EXCLUDED."updated_at"
      WHERE "notification_recipients"."updated_at" < EXCLUDED."updated_at"`;
  }

  async recipient(userId: string): Promise<{ email: string | null; name: string | null } | null> {
    const row = await this.db.notificationRecipient.findUnique({ where: { userId } });
    return row ? { email: row.email, name: row.name } : null;
  }

  /** The subject of a contact message (the support service's own table). */
  async contactSubject(contactFormId: number): Promise<string | null> {
    const row = await this.db.contactForm.findUnique({ where: { id: contactFormId }, select: { subject: true } });
    return row?.subject ?? null;
  }

  /** A deleted account's notices, preferences and address go. */
  async forgetMember(userId: string): Promise<void> {
    await this.db.notification.deleteMany({ where: { userId } });
    await this.db.notificationSettings.deleteMany({ where: { userId } });
    await this.db.notificationRecipient.deleteMany({ where: { userId } });
  }

  /** Records that the notice was emailed; false when it was already (a redelivered event). */
  async markEmailed(notificationId: number): Promise<boolean> {
    const inserted = await this.db.$executeRaw`
      INSERT INTO "support"."notification_emails" ("notification_id") VALUES (${BigInt(notificationId)}) ON CONFLICT DO NOTHING`;
    return inserted > 0;
  }
}
