import type { FastifyInstance } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { VoteCaster } from '../vote-caster.js';
import type { PersonalFeed } from '../feed/personal-feed.js';

/** Rating approved photos from 1 to 5 stars: one vote per member per photo, changeable. Votes share gRPC calls. */
export default async function voteRoutes(app: FastifyInstance, { clients, feed }: { clients: Clients; feed: PersonalFeed }) {
  const serve = contractRoutes(app);
  const votes = new VoteCaster(clients);

  serve(routes.castVote, async (request) => {
    const caller = await request.requireMember();
    const { rating, averageRating, voteCount } = await votes.cast(caller, request.params.id, request.body.rating);
    // The member's next need-your-vote page from this replica leaves the photo out at once, before the event comes.
    feed.noteVote(caller.userId, request.params.id);
    return { rating, averageRating, voteCount };
  });

  serve(routes.myVote, async (request, reply) => {
    const caller = await request.requireMember();
    const { rating } = await clients.vote.call.getMyVote({ photoId: request.params.id }, { caller });
    reply.header('cache-control', 'no-store');
    return { rating: rating ?? null };
  });
}
