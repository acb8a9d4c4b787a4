import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { PhotoServiceService } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaPhotoRepository } from './photo.repository.js';
import { PhotoService } from './photo.service.js';
import { GrpcPhotoStorage } from './storage.client.js';
import { photoHandlers } from './grpc/photo.server.js';
import { UPLOADER_EVENTS, applyUploaderEvent } from './consumers/uploaders.consumer.js';
import { RATING_EVENTS, applyRatingEvent } from './consumers/ratings.consumer.js';

export const photoService = defineService<PrismaClient>({
  name: 'photo',
  dependsOn: ['storage'],
  database: { schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox, logger, connect, consume }) {
    const storage = new GrpcPhotoStorage(connect('storage', StorageServiceClient));
    const service = new PhotoService(new PrismaPhotoRepository(prisma, outbox), storage, logger);
    server.add(PhotoServiceService, photoHandlers(service));
    consume('uploaders', UPLOADER_EVENTS, (event, tx) => applyUploaderEvent(event, PrismaPhotoRepository.uploaders(tx)));
    consume('ratings', RATING_EVENTS, (event, tx) => applyRatingEvent(event, PrismaPhotoRepository.ratings(tx)));
  },
});

export { PhotoService } from './photo.service.js';
