import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { VoteServiceService } from '@snapcracks/proto/vote/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaVoteRepository } from './vote.repository.js';
import { VoteService } from './vote.service.js';
import { voteHandlers } from './grpc/vote.server.js';
import { voteBackfillHandlers } from './grpc/backfill.server.js';
import { PgVoteBackfill } from './backfill.pg-repository.js';
import { VOTABLE_PHOTO_EVENTS, applyVotablePhotoEvent } from './consumers/votable-photos.consumer.js';
import { VOTER_EVENTS, applyVoterEvent } from './consumers/voters.consumer.js';
import { HonestVotesService } from './honest-votes.service.js';
import { RatersRepository } from './raters.repository.js';
import { scheduleRaterFigures } from './rater-figures-schedule.js';
import { loadVoteConfig } from './config.js';

export const voteService = defineService<PrismaClient>({
  name: 'vote',
  // Votes are the busiest writes: each holds a connection for one short transaction.
  database: { schema: 'vote', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient, poolSize: 10 },
  async setup({ server, prisma, pool, outbox, consume, logger }) {
    const config = loadVoteConfig();
    const raters = new RatersRepository(pool);
    const honest = new HonestVotesService(pool, outbox, raters);
    // Casting a vote is raw SQL on the pool, not Prisma: the hot path (see PrismaVoteRepository).
    server.add(VoteServiceService, {
      ...voteHandlers(new VoteService(new PrismaVoteRepository(prisma, outbox, pool)), honest, server.signer),
      ...voteBackfillHandlers(new PgVoteBackfill(pool)),
    });
    consume('photos', VOTABLE_PHOTO_EVENTS, (event, tx) => applyVotablePhotoEvent(event, PrismaVoteRepository.votablePhotos(tx)));
    // A deleted account's votes leave every photo's totals, a disabled one's stop counting while it is; the new totals
    // go out as vote.vote.cast from the outbox.
    const policy = { disabledVotesCount: config.VOTES_OF_DISABLED_ACCOUNTS_COUNT };
    consume('voters', VOTER_EVENTS, (event, tx) => applyVoterEvent(event, PrismaVoteRepository.voters(tx, outbox), policy));

    // The Raters page's figures, over every vote, when they fall due (one replica at a time).
    const figures = scheduleRaterFigures(raters, config.RATER_FIGURES_REFRESH, logger);
    return {
      async stop() {
        figures.stop();
      },
    };
  },
});

export { VoteService } from './vote.service.js';
