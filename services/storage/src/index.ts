import { fileURLToPath } from 'node:url';
import { defineService, type ServiceModule } from '@snapcracks/kit';
import { StorageServiceService } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { Backends } from './backends/index.js';
import { BlobRepository } from './blob.repository.js';
import { loadStorageConfig } from './config.js';
import { DriveAuthorization } from './drive-authorization.js';
import { storageHandlers } from './grpc/storage.server.js';
import { ImageProcessor } from './media/index.js';
import { StorageService } from './storage.service.js';

/**
 * The storage service, configured from `env` when it starts (process.env by default): a missing variable for
 * the chosen backend stops start-up with a one-line ConfigError.
 */
export function createStorageService(options: { env?: Record<string, string | undefined> } = {}): ServiceModule {
  return defineService<PrismaClient>({
    name: 'storage',
    database: { schema: 'storage', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
    async setup({ platform, logger, server, prisma }) {
      const config = loadStorageConfig(platform.dataDir, options.env ?? process.env);
      // One pool of image threads per service instance, off the event loop that serves calls.
      const images = new ImageProcessor({
        maxThreads: config.imageWorkers,
        niceness: config.imageNiceness,
        maxInputPixels: config.imageMaxPixels,
        maxQueued: config.imageQueue.max,
        maxQueuedPerMember: config.imageQueue.perMember,
      });
      const service = new StorageService(new BlobRepository(prisma), new Backends(config), images, new DriveAuthorization(config.googleOAuth), logger);
      server.add(StorageServiceService, storageHandlers(service));
      logger.info({ storageType: config.storageType }, 'storage backend');
      return { stop: () => images.close() };
    },
  });
}

export const storageService = createStorageService();

export { loadStorageConfig, type StorageConfig } from './config.js';
