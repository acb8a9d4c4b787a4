import type { Outbox } from '@snapcracks/kit';
import type { Prisma } from '../generated/prisma/client.js';
import { PHOTO_ROW, toPhoto, type EventOf, type Photo } from '../photo.repository.js';

/** Every photo of one owner, deleted by the consumer of auth's user events inside its transaction. */
export interface PhotoOwnerStore {
  /**
   * Deletes every photo of the user, and who rated them, storing the event `eventOf` builds for each (from the row as
   * it was) in the same transaction. Answers the deleted photos, oldest id first; none the second time.
   */
  deleteAllOf(userId: string, eventOf: EventOf): Promise<Photo[]>;
}

/** One owner's photos inside a consumer's transaction, storing events in `outbox` with the change. */
export class PrismaPhotoOwnerStore implements PhotoOwnerStore {
  constructor(
    private readonly tx: Prisma.TransactionClient,
    private readonly outbox: Pick<Outbox, 'enqueue'>,
  ) {}

  async deleteAllOf(userId: string, eventOf: EventOf): Promise<Photo[]> {
    // Locked first, in id order, the photos and then their ratings rows (which the deletion's cascade would otherwise
    // take in any order, against batches of votes that take them in id order): a change committing meanwhile (a review
    // decision, new totals) either committed before and is what the events report, or waits and then finds the photo gone.
    const locked = await this.tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "photo"."photos" WHERE "user_id" = ${userId} ORDER BY "id" FOR UPDATE`;
    if (locked.length === 0) return [];
    const ids = locked.map((row) => row.id);
    await this.tx.$queryRaw`SELECT "photo_id" FROM "photo"."ratings" WHERE "photo_id" = ANY(${ids}::int[]) ORDER BY "photo_id" FOR UPDATE`;
    const rows = await this.tx.photo.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' }, ...PHOTO_ROW });
    await this.tx.photo.deleteMany({ where: { id: { in: ids } } });
    await this.tx.photoRater.deleteMany({ where: { photoId: { in: ids } } });
    const photos = rows.map((row) => toPhoto(row, null));
    for (const photo of photos) await this.outbox.enqueue(this.tx, eventOf(photo));
    return photos;
  }
}
