/**
 * `pnpm stats:rebuild`: rebuilds the stats service's read models from the photo, vote and auth services
 * (docs/stats.md; README, Operations). Run it where a stats replica runs, with its settings: DATABASE_URL (and
 * DATABASE_DIRECT_URL behind a pooler), PHOTO_SERVICE_ADDR, VOTE_SERVICE_ADDR, AUTH_SERVICE_ADDR and the stats component's identity keys (IDENTITY_PRIVATE_KEY
 * and IDENTITY_PUBLIC_KEYS, or outside production the shared IDENTITY_SECRET), since those services answer the
 * backfill to the stats component only. Safe while the product runs; exits 0 when the new figures are committed.
 */
import { z } from 'zod';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import {
  IdentitySigner,
  baseConfigSchema,
  createLogger,
  createServiceClient,
  exitOnConfigError,
  loadConfig,
  resolveIdentityKeyring,
} from '@snapcracks/kit';
import { grpcBackfillSources } from './backfill.sources.js';
import { rebuildStatsDatabase } from './rebuild.js';

const address = z.string({ error: 'required, the host:port of the service' }).min(1);
const config = loadConfig(
  baseConfigSchema.extend({
    DATABASE_URL: z.string().url(),
    PHOTO_SERVICE_ADDR: address,
    VOTE_SERVICE_ADDR: address,
    AUTH_SERVICE_ADDR: address,
    /** How long each source stream may take; a large community's photos take a while. */
    REBUILD_STREAM_DEADLINE_MS: z.coerce.number().int().positive().default(30 * 60_000),
  }),
);

const logger = createLogger('stats-rebuild', config.LOG_LEVEL);
const signer = new IdentitySigner(
  exitOnConfigError(() => resolveIdentityKeyring('stats', config, config.NODE_ENV)),
  'stats',
);
const clients = {
  photo: createServiceClient(PhotoServiceClient, config.PHOTO_SERVICE_ADDR, { signer, peer: 'photo' }),
  vote: createServiceClient(VoteServiceClient, config.VOTE_SERVICE_ADDR, { signer, peer: 'vote' }),
  auth: createServiceClient(AuthServiceClient, config.AUTH_SERVICE_ADDR, { signer, peer: 'auth' }),
};
try {
  const sources = grpcBackfillSources(clients, {
    deadlineMs: config.REBUILD_STREAM_DEADLINE_MS,
    refused: (error) => logger.warn({ reason: error.message }, 'stats rebuild: a source message was left out'),
  });
  // PostgreSQL itself when DATABASE_URL goes through a pooler: the rebuild's statements are long.
  const report = await rebuildStatsDatabase(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL, sources, logger);
  logger.info(report, 'stats rebuilt');
} catch (error) {
  logger.error({ err: error }, 'stats rebuild failed; nothing was changed');
  process.exitCode = 1;
} finally {
  for (const client of Object.values(clients)) client.close();
}
