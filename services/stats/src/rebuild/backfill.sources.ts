import { z } from 'zod';
import type { ServiceClient } from '@snapcracks/kit';
import type { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import type { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import type { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { factsOf } from '../consumers/photos.consumer.js';
import type { PhotoStateFacts, Stars, VoteTotals } from '../stats.projection.js';

/** A photo's current state, as a synthetic photo event would carry it, and when its review decision was taken. */
export interface BackfilledPhoto {
  photoId: number;
  state: PhotoStateFacts;
  reviewedAt: Date | null;
}

/** A photo's vote totals and its votes per rating, read together at the totals' version. */
export interface BackfilledVotes {
  photoId: number;
  totals: VoteTotals;
  stars: Stars;
}

/** Where a rebuild reads the truth: the source services, a page at a time, each in ascending id order. */
export interface BackfillSources {
  photos(): AsyncIterable<BackfilledPhoto[]>;
  votes(): AsyncIterable<BackfilledVotes[]>;
  /** Every existing account; an owner not among them was deleted. */
  userIds(): AsyncIterable<string[]>;
}

export interface BackfillClients {
  photo: ServiceClient<PhotoServiceClient>;
  vote: ServiceClient<VoteServiceClient>;
  auth: ServiceClient<AuthServiceClient>;
}

/** A message the source sent that the rebuild cannot place (counted and logged, never stored). */
export class RefusedBackfill extends Error {
  override name = 'RefusedBackfill';
}

const count = z.number().int().min(0);
/** The edge of the rebuild: a page of totals must be what the projection can store, counts per rating adding up. */
const votesSchema = z
  .object({
    photoId: z.number().int().positive(),
    voteCount: count,
    ratingSum: count,
    version: z.number().int().positive(),
    votesByRating: z.array(count).length(5),
  })
  .refine((v) => v.votesByRating.reduce((a, b) => a + b, 0) === v.voteCount, { message: 'the votes per rating do not add up to the vote count' })
  .refine((v) => v.votesByRating.reduce((sum, n, i) => sum + n * (i + 1), 0) === v.ratingSum, { message: 'the votes per rating do not add up to the rating sum' });
const userIdsSchema = z.array(z.string().min(1));

/**
 * The sources over the backfill RPCs of the photo, vote and auth services, called as the stats component (the only
 * caller they accept). A stream may run for minutes on a large community, hence its own deadline. Every message is
 * checked here: a photo state the photo consumer could not place, or totals that do not add up, is reported through
 * `refused` and left out.
 */
export function grpcBackfillSources(clients: BackfillClients, options: { deadlineMs: number; refused(error: RefusedBackfill): void }): BackfillSources {
  const call = { caller: null, deadlineMs: options.deadlineMs };
  return {
    async *photos() {
      for await (const page of clients.photo.serverStream('streamPhotoStates', {}, call)) {
        const placed: BackfilledPhoto[] = [];
        for (const photo of page.photos) {
          const state = factsOf(photo.state);
          if (state) placed.push({ photoId: photo.state!.photoId, state, reviewedAt: photo.reviewedAt ?? null });
          else options.refused(new RefusedBackfill(`photo ${photo.state?.photoId ?? '?'}: a state without owner, status or version`));
        }
        yield placed;
      }
    },

    async *votes() {
      for await (const page of clients.vote.serverStream('streamPhotoVotes', {}, call)) {
        const placed: BackfilledVotes[] = [];
        for (const message of page.photos) {
          const parsed = votesSchema.safeParse(message);
          if (!parsed.success) {
            options.refused(new RefusedBackfill(`votes of photo ${message.photoId}: ${parsed.error.issues[0]?.message ?? 'invalid'}`));
            continue;
          }
          const { photoId, voteCount, ratingSum, version, votesByRating } = parsed.data;
          placed.push({ photoId, totals: { voteCount, ratingSum, version }, stars: votesByRating as Stars });
        }
        yield placed;
      }
    },

    async *userIds() {
      for await (const page of clients.auth.serverStream('streamUserIds', {}, call)) yield userIdsSchema.parse(page.userIds);
    },
  };
}
