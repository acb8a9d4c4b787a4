import type { Blob, PrismaClient } from './generated/prisma/client.js';

export type { Blob } from './generated/prisma/client.js';

export type NewBlob = Pick<Blob, 'key' | 'storageType' | 'size' | 'contentType' | 'etag'>;

/** Where a page of the oldest-first listing ends: the last row's creation time and key. */
export interface BlobCursor {
  createdAt: Date;
  key: string;
}

/** The blobs table: the index of every stored blob, whichever backend holds its bytes. The only module that talks to Prisma. */
export class BlobRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Records a blob before its bytes are written. */
  create(blob: NewBlob): Promise<Blob> {
    return this.prisma.blob.create({ data: blob });
  }

  /** What a blob streamed in turned out to be, once all its bytes are written. */
  finish(key: string, written: { size: number; etag: string; driveFileId?: string | undefined }): Promise<Blob> {
    return this.prisma.blob.update({ where: { key }, data: { size: written.size, etag: written.etag, ...(written.driveFileId ? { driveFileId: written.driveFileId } : {}) } });
  }

  setDriveFileId(key: string, driveFileId: string): Promise<Blob> {
    return this.prisma.blob.update({ where: { key }, data: { driveFileId } });
  }

  find(key: string): Promise<Blob | null> {
    return this.prisma.blob.findUnique({ where: { key } });
  }

  /** The rows of `keys` that exist, only those created before `createdBefore` when given. */
  findMany(keys: string[], createdBefore?: Date): Promise<Blob[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.prisma.blob.findMany({ where: { key: { in: keys }, ...(createdBefore ? { createdAt: { lt: createdBefore } } : {}) } });
  }

  /** Removes the rows (after their bytes); returns how many there were. */
  async delete(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const { count } = await this.prisma.blob.deleteMany({ where: { key: { in: keys } } });
    return count;
  }

  /** Oldest first (creation time, then key), after `cursor`, optionally only those created before `createdBefore`. */
  list(options: { limit: number; after?: BlobCursor | undefined; createdBefore?: Date | undefined }): Promise<Blob[]> {
    const { after, createdBefore } = options;
    return this.prisma.blob.findMany({
      where: {
        AND: [
          createdBefore ? { createdAt: { lt: createdBefore } } : {},
          after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, key: { gt: after.key } }] } : {},
        ],
      },
      orderBy: [{ createdAt: 'asc' }, { key: 'asc' }],
      take: options.limit,
    });
  }
}
