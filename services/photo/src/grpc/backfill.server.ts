import { requireService, writeStream, type Handlers } from '@snapcracks/kit';
import type { BackfilledPhoto, PhotoServiceServer } from '@snapcracks/proto/photo/v1';
import type { BackfillPhoto, PgPhotoBackfill } from '../backfill.pg-repository.js';
import { photoState } from '../photo.service.js';

/** The RPCs that feed another component's rebuild of its read models. */
export type PhotoBackfillHandlers = Pick<Handlers<PhotoServiceServer>, 'streamPhotoStates'>;

/** Protocol edge of the backfill: only the stats component may read every photo's state this way. */
export function photoBackfillHandlers(backfill: PgPhotoBackfill): PhotoBackfillHandlers {
  return {
    async streamPhotoStates(call, ctx) {
      requireService(ctx, 'stats');
      // One message per page; the next page is read only once the client has taken this one (writeStream waits).
      await writeStream(call, mapPages(backfill.pages()));
    },
  };
}

async function* mapPages(pages: AsyncIterable<BackfillPhoto[]>): AsyncIterable<{ photos: BackfilledPhoto[] }> {
  for await (const page of pages) yield { photos: page.map(toBackfilledPhoto) };
}

/** The state exactly as the photo's events carry it, and its review time. */
function toBackfilledPhoto(photo: BackfillPhoto): BackfilledPhoto {
  return {
    state: photoState(photo),
    reviewedAt: photo.reviewedAt ?? undefined,
  };
}
