import { consumeIdempotently, decodeEventOfType, type Envelope } from '@snapcracks/kit';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { SqlProjectionStore } from '../projection.store.js';
import { PHOTO_EVENTS, applyPhotoEvent } from '../consumers/photos.consumer.js';
import { VOTE_EVENTS, applyVoteEvent } from '../consumers/votes.consumer.js';
import { USER_EVENTS, applyUserEvent } from '../consumers/users.consumer.js';

/**
 * Handles an event as the service's consumers do (index.ts): once per consumer and event id, in one transaction with
 * the record of it. Answers whether the handler ran (false for a redelivery).
 */
export function deliver(prisma: PrismaClient, event: Envelope): Promise<boolean> {
  const on = (consumer: string, handle: (tx: Prisma.TransactionClient) => Promise<void>) =>
    consumeIdempotently({ prisma, schema: 'stats', consumer: `stats.${consumer}`, event, handle });
  if ((PHOTO_EVENTS as readonly string[]).includes(event.type)) {
    return on('photos', (tx) => applyPhotoEvent(decodeEventOfType(event, PHOTO_EVENTS), new SqlProjectionStore(tx)));
  }
  if ((VOTE_EVENTS as readonly string[]).includes(event.type)) {
    return on('votes', (tx) => applyVoteEvent(decodeEventOfType(event, VOTE_EVENTS), new SqlProjectionStore(tx)));
  }
  if ((USER_EVENTS as readonly string[]).includes(event.type)) {
    return on('users', (tx) => applyUserEvent(decodeEventOfType(event, USER_EVENTS), new SqlProjectionStore(tx)));
  }
  throw new Error(`stats does not consume "${event.type}"`);
}
