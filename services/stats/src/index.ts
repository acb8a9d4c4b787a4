import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { StatsServiceService } from '@snapcracks/proto/stats/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaStatsRepository } from './stats.repository.js';
import { SqlProjectionStore } from './projection.store.js';
import { StatsService } from './stats.service.js';
import { statsHandlers } from './grpc/stats.server.js';
import { PHOTO_EVENTS, applyPhotoEvent } from './consumers/photos.consumer.js';
import { VOTE_EVENTS, voteEventsStatementOf } from './consumers/votes.consumer.js';
import { USER_EVENTS, applyUserEvent } from './consumers/users.consumer.js';
import { grpcBackfillSources, type BackfillSources } from './rebuild/backfill.sources.js';
import { serveRequestedRebuilds } from './rebuild/requested-rebuilds.js';

/** How long a requested rebuild's streams may take (the command has REBUILD_STREAM_DEADLINE_MS for larger ones). */
const REQUESTED_REBUILD_DEADLINE_MS = 10 * 60_000;

export const statsService = defineService<PrismaClient>({
  name: 'stats',
  // Only for rebuilds (their backfill streams); the read path never calls a peer.
  // The vote consumer's batch statements (two in flight), the photo and user consumers' transactions and the reads; a requested
  // rebuild runs on a direct connection of its own.
  database: { schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient, poolSize: 5 },
  async setup({ server, prisma, directPool, logger, connect, consume, consumeBatchesInOneStatement }) {
    server.add(StatsServiceService, statsHandlers(new StatsService(new PrismaStatsRepository(prisma))));
    // Each event changes one photo row, locked, with the community's counters it moves, in the kit's transaction.
    consume('photos', PHOTO_EVENTS, (event, tx) => applyPhotoEvent(event, new SqlProjectionStore(tx)));
    // The busiest consumer: on the pool, a batch of events in one statement that also records them (one transaction per
    // vote through Prisma was ~570 events/s).
    consumeBatchesInOneStatement('votes', VOTE_EVENTS, voteEventsStatementOf, { deduplicate: true });
    consume('users', USER_EVENTS, (event, tx) => applyUserEvent(event, new SqlProjectionStore(tx)));

    let sources: BackfillSources | undefined;
    const backfill = () =>
      (sources ??= grpcBackfillSources(
        { photo: connect('photo', PhotoServiceClient), vote: connect('vote', VoteServiceClient), auth: connect('auth', AuthServiceClient) },
        { deadlineMs: REQUESTED_REBUILD_DEADLINE_MS, refused: (error) => logger.warn({ reason: error.message }, 'stats rebuild: a source message was left out') },
      ));
    const rebuilds = serveRequestedRebuilds(directPool(), backfill, logger);
    return { stop: () => rebuilds.stop() };
  },
});

export { StatsService } from './stats.service.js';
// The rebuild of the read models from the source services (pnpm stats:rebuild runs it; tests call it directly).
export { rebuildStats, rebuildStatsDatabase, type RebuildReport } from './rebuild/rebuild.js';
export { grpcBackfillSources, type BackfillClients, type BackfillSources } from './rebuild/backfill.sources.js';
