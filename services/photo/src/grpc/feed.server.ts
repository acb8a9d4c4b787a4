import { InvalidArgumentError, requireService, writeStream, type Handlers } from '@snapcracks/kit';
import type { FeedEntry, PhotoServiceServer } from '@snapcracks/proto/photo/v1';
import type { FeedPhoto, PgPhotoFeed } from '../feed.pg-repository.js';
import type { GalleryService } from '../gallery.service.js';
import { statusToMessage } from '../photo.service.js';
import { toMessage } from './photo.server.js';

/** The RPCs the gateway's personal feed is built from. */
export type PhotoFeedHandlers = Pick<Handlers<PhotoServiceServer>, 'streamFeedEntries' | 'listRatedPhotos' | 'getGalleryCards'>;

/** Protocol edge of the personal feed: only the gateway may read every photo's place in the order this way. */
export function photoFeedHandlers(feed: PgPhotoFeed, gallery: GalleryService): PhotoFeedHandlers {
  return {
    async streamFeedEntries(call, ctx) {
      requireService(ctx, 'gateway');
      // One message per page; the next page is read only once the client has taken this one (writeStream waits).
      await writeStream(call, mapPages(feed.entryPages()));
    },

    async listRatedPhotos(request, ctx) {
      requireService(ctx, 'gateway');
      if (!request.userId) throw new InvalidArgumentError('A user id is required');
      return { photoIds: await feed.ratedBy(request.userId) };
    },

    async getGalleryCards(request, ctx) {
      requireService(ctx, 'gateway');
      return { photos: (await gallery.cards(request.ids)).map(toMessage) };
    },
  };
}

async function* mapPages(pages: AsyncIterable<FeedPhoto[]>): AsyncIterable<{ entries: FeedEntry[] }> {
  for await (const page of pages) yield { entries: page.map(toFeedEntry) };
}

function toFeedEntry(photo: FeedPhoto): FeedEntry {
  return {
    photoId: photo.id,
    userId: photo.userId,
    status: statusToMessage(photo.status),
    approvedAt: photo.approvedAt ?? undefined,
    version: photo.version,
    voteCount: photo.voteCount,
    ratingSum: photo.ratingSum,
    ratingVersion: photo.ratingVersion,
  };
}
