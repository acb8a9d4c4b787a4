import type { FastifyInstance } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { VoteCaster } from '../vote-caster.js';

/** Rating approved photos from 1 to 5 stars: one vote per member per photo, changeable. Votes share gRPC calls. */
export default async function voteRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const serve = contractRoutes(app);
  const votes = new VoteCaster(clients);

  serve(routes.castVote, async (request) => {
    const caller = await request.requireMember();
    const { rating, averageRating, voteCount } = await votes.cast(caller, request.params.id, request.body.rating);
    return { rating, averageRating, voteCount };
  });

  serve(routes.myVote, async (request, reply) => {
    const caller = await request.requireMember();
    const { rating } = await clients.vote.call.getMyVote({ photoId: request.params.id }, { caller });
    reply.header('cache-control', 'no-store');
    return { rating: rating ?? null };
  });
}
