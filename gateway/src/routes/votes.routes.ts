import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clients } from '../clients.js';
import { memberLimit } from '../plugins/member-limits.js';
import { photoIdParams } from '../photo-json.js';
import { VoteCaster } from '../vote-caster.js';

/** The vote service says the same; checked here so a bad rating never costs a call. */
export const RATING_INVALID = 'Rating must be a whole number from 1 to 5';

const voteBody = z.object(
  {
    rating: z.number({ error: RATING_INVALID }).int(RATING_INVALID).min(1, RATING_INVALID).max(5, RATING_INVALID),
  },
  { error: RATING_INVALID },
);
const voteJson = z.object({ rating: z.number(), averageRating: z.number(), voteCount: z.number() });
const myVoteJson = z.object({ rating: z.number().nullable() });

/** Rating approved photos from 1 to 5 stars: one vote per member per photo, changeable. Votes share gRPC calls. */
export default async function voteRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const votes = new VoteCaster(clients);

  // Per member (RATE_LIMIT_VOTES): a member rating a gallery casts many, and their own count is theirs.
  route.post('/api/photos/:id/vote', { ...memberLimit(app, 'votes'), schema: { params: photoIdParams, body: voteBody, response: { 200: voteJson } } }, async (request) => {
    const caller = await request.requireMember();
    const { rating, averageRating, voteCount } = await votes.cast(caller, request.params.id, request.body.rating);
    return { rating, averageRating, voteCount };
  });

  route.get('/api/photos/:id/vote', { schema: { params: photoIdParams, response: { 200: myVoteJson } } }, async (request, reply) => {
    const caller = await request.requireMember();
    const { rating } = await clients.vote.call.getMyVote({ photoId: request.params.id }, { caller });
    reply.header('cache-control', 'no-store');
    return { rating: rating ?? null };
  });
}
