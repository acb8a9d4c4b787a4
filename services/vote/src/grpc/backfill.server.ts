import { requireService, writeStream, type Handlers } from '@snapcracks/kit';
import type { PhotoVotes, VoteServiceServer } from '@snapcracks/proto/vote/v1';
import type { BackfillPhotoVotes, PgVoteBackfill } from '../backfill.pg-repository.js';

/** The RPCs that feed another component's rebuild of its read models. */
export type VoteBackfillHandlers = Pick<Handlers<VoteServiceServer>, 'streamPhotoVotes'>;

/** Protocol edge of the backfill: only the stats component may read every photo's votes this way. */
export function voteBackfillHandlers(backfill: PgVoteBackfill): VoteBackfillHandlers {
  return {
    async streamPhotoVotes(call, ctx) {
      requireService(ctx, 'stats');
      // One message per page; the next page is read only once the client has taken this one (writeStream waits).
      await writeStream(call, mapPages(backfill.pages()));
    },
  };
}

async function* mapPages(pages: AsyncIterable<BackfillPhotoVotes[]>): AsyncIterable<{ photos: PhotoVotes[] }> {
  for await (const page of pages) yield { photos: page.map((p) => ({ ...p, votesByRating: [...p.votesByRating] })) };
}
