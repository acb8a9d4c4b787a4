import { keysetPages } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';

/**
 * Every account's id for a read model rebuilt elsewhere (the stats service's, which takes an owner missing here for a
 * deleted account), a page at a time by id: each page one range scan of the primary key, the next read only when the
 * previous one has been taken.
 */
export class PrismaUserBackfill {
  constructor(
    private readonly prisma: Pick<PrismaClient, 'user'>,
    private readonly pageSize = 1000,
  ) {}

  async *pages(): AsyncIterable<string[]> {
    const readPage = (after: string | undefined) =>
      this.prisma.user.findMany({
        select: { id: true },
        ...(after === undefined ? {} : { where: { id: { gt: after } } }),
        orderBy: { id: 'asc' },
        take: this.pageSize,
      });
    for await (const rows of keysetPages(readPage, (row) => row.id, this.pageSize)) yield rows.map((row) => row.id);
  }
}
