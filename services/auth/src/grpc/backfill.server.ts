import { requireService, writeStream, type Handlers } from '@snapcracks/kit';
import type { AuthServiceServer } from '@snapcracks/proto/auth/v1';
import type { PrismaUserBackfill } from '../backfill.repository.js';

/** The RPCs that feed another component's rebuild of its read models. */
export type AuthBackfillHandlers = Pick<Handlers<AuthServiceServer>, 'streamUserIds'>;

/** Protocol edge of the backfill: only the stats component may list every account this way. */
export function authBackfillHandlers(backfill: PrismaUserBackfill): AuthBackfillHandlers {
  return {
    async streamUserIds(call, ctx) {
      requireService(ctx, 'stats');
      // One message per page; the next page is read only once the client has taken this one (writeStream waits).
      await writeStream(call, mapPages(backfill.pages()));
    },
  };
}

async function* mapPages(pages: AsyncIterable<string[]>): AsyncIterable<{ userIds: string[] }> {
  for await (const userIds of pages) yield { userIds };
}
