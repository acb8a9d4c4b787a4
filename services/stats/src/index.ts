import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { StatsServiceService } from '@snapcracks/proto/stats/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaStatsRepository } from './stats.repository.js';
import { StatsService } from './stats.service.js';
import { statsHandlers } from './grpc/stats.server.js';
import { PHOTO_EVENTS, applyPhotoEvent } from './consumers/photos.consumer.js';
import { VOTE_EVENTS, applyVoteEvent } from './consumers/votes.consumer.js';
import { USER_EVENTS, applyUserEvent } from './consumers/users.consumer.js';

/**
 * Vote events handled at once by one replica. The bus hands each subscription one event at a time, and one event is
 * one transaction waiting on the database most of its time, so the busiest consumer subscribes several times under
 * its one durable name: the subscriptions share the events as replicas do. Order does not matter (totals carry their
 * version) and the counters are sharded, so they rarely wait on each other.
 */
export const VOTE_CONSUMERS = 4;

export const statsService = defineService<PrismaClient>({
  name: 'stats',
  // The vote consumers' transactions, the photo and user consumers' and the reads.
  database: { schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient, poolSize: VOTE_CONSUMERS + 4 },
  async setup({ server, prisma, consume }) {
    server.add(StatsServiceService, statsHandlers(new StatsService(new PrismaStatsRepository(prisma))));
    // Each event changes one photo row, locked, with the community's counters it moves, in the kit's transaction.
    consume('photos', PHOTO_EVENTS, (event, tx) => applyPhotoEvent(event, PrismaStatsRepository.projection(tx)));
    for (let i = 0; i < VOTE_CONSUMERS; i++) consume('votes', VOTE_EVENTS, (event, tx) => applyVoteEvent(event, PrismaStatsRepository.projection(tx)));
    consume('users', USER_EVENTS, (event, tx) => applyUserEvent(event, PrismaStatsRepository.projection(tx)));
  },
});

export { StatsService } from './stats.service.js';
