import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { PhotoServiceService } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaPhotoRepository } from './photo.repository.js';
import { PhotoService } from './photo.service.js';
import { GrpcPhotoStorage } from './storage.client.js';
import { photoHandlers } from './grpc/photo.server.js';
import { photoBackfillHandlers } from './grpc/backfill.server.js';
import { PgPhotoBackfill } from './backfill.pg-repository.js';
import { photoFeedHandlers } from './grpc/feed.server.js';
import { PgPhotoFeed } from './feed.pg-repository.js';
import { UPLOADER_EVENTS, applyUploaderEvent } from './consumers/uploaders.consumer.js';
import { RATING_EVENTS, ratingsStatementOf } from './consumers/ratings.consumer.js';
import { USER_EVENTS, applyUserEvent } from './consumers/users.consumer.js';
import { PrismaUploaderStore } from './consumers/uploaders.store.js';
import { PrismaPhotoOwnerStore } from './consumers/photo-owners.store.js';
import { PgGalleryRepository } from './gallery.pg-repository.js';
import { GalleryService } from './gallery.service.js';
import { MediumBackfill } from './medium-backfill.js';
import { PgMediumBackfillStore } from './medium-backfill.pg-repository.js';

/** How often the top-rated prior's mean is compared with the votes cast (and, when it moved, photos rescored). */
const PRIOR_REFRESH_MS = 10 * 60 * 1000;

export const photoService = defineService<PrismaClient>({
  name: 'photo',
  // Gallery pages run two short queries each on the pool, and the gateway's public page cache takes most of them.
  database: { schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient, poolSize: 8 },
  async setup({ server, prisma, pool, directPool, outbox, logger, connect, consume, consumeBatchesInOneStatement }) {
    const storage = new GrpcPhotoStorage(connect('storage', StorageServiceClient));
    const service = new PhotoService(new PrismaPhotoRepository(prisma, outbox), storage, logger);
    const gallery = new GalleryService(new PgGalleryRepository(pool));
    server.add(PhotoServiceService, {
      ...photoHandlers(service, gallery),
      ...photoBackfillHandlers(new PgPhotoBackfill(pool)),
      ...photoFeedHandlers(new PgPhotoFeed(pool), gallery),
    });
    consume('uploaders', UPLOADER_EVENTS, (event, tx) => applyUploaderEvent(event, new PrismaUploaderStore(tx)));
    // A vote's totals and rater: busy, so on the pool, a batch of events per transaction.
    consumeBatchesInOneStatement('ratings', RATING_EVENTS, ratingsStatementOf, { deduplicate: false });
    // A deleted account's photos go, each with its photo.photo.deleted, and their blobs after them.
    consume('users', USER_EVENTS, (event, tx) => applyUserEvent(event, service, new PrismaPhotoOwnerStore(tx, outbox)));

    const refreshPrior = () =>
      gallery.refreshPrior().then(
        ({ mean, rescored }) => rescored > 0 && logger.info({ mean, rescored }, 'top-rated prior refreshed; approved photos rescored'),
        (error: unknown) => logger.warn({ err: error }, 'could not refresh the top-rated prior'),
      );
    const timer = setInterval(refreshPrior, PRIOR_REFRESH_MS);
    timer.unref();
    // Photos stored before there were medium images get theirs in the background, a few at a time (medium-backfill.ts).
    const mediumBackfill = new MediumBackfill(new PgMediumBackfillStore(pool, directPool()), storage, logger).start();
    return {
      async stop() {
        clearInterval(timer);
        await mediumBackfill.stop();
      },
    };
  },
});

export { PhotoService } from './photo.service.js';
