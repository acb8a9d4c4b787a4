import type { FastifyInstance } from 'fastify';
import { routes, type RATERS } from '@snapcracks/http-contract';
import { RaterSort } from '@snapcracks/proto/vote/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { memberName } from '../member-name.js';
import type { UserDirectory } from '../user-directory.js';

const SORTS: Record<(typeof RATERS.sorts)[number], RaterSort> = {
  score: RaterSort.RATER_SORT_SCORE,
  votes: RaterSort.RATER_SORT_VOTES,
  mean: RaterSort.RATER_SORT_MEAN,
  spread: RaterSort.RATER_SORT_SPREAD,
  deviation: RaterSort.RATER_SORT_DEVIATION,
  run: RaterSort.RATER_SORT_RUN,
  bursts: RaterSort.RATER_SORT_BURSTS,
};

/**
 * Honest votes (admins): the Raters page, one rater's votes, and voiding or restoring votes. The vote service keeps the
 * votes, the figures and the audit; the gateway names the members through the cached user directory.
 */
export default async function raterRoutes(app: FastifyInstance, { clients, users }: { clients: Clients; users: UserDirectory }) {
  const serve = contractRoutes(app);
  const accounts = async (ids: string[]) => new Map(await Promise.all([...new Set(ids)].map(async (id) => [id, await users.get(id).catch(() => null)] as const)));

  serve(routes.raters, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { sort, page, limit } = request.query;
    const answer = await clients.vote.call.listRaters({ sort: SORTS[sort], page: { page, limit } }, { caller });
    const named = await accounts(answer.raters.map((r) => r.userId));
    reply.header('cache-control', 'private, no-store');
    return {
      raters: answer.raters.map((r) => {
        const account = named.get(r.userId) ?? null;
        return {
          userId: r.userId,
          name: memberName(account),
          email: account?.email ?? null,
          isEnabled: account ? account.isEnabled : null,
          votes: r.votes,
          voided: r.voided,
          suspended: r.suspended,
          mean: r.mean,
          spread: r.spread,
          deviation: r.deviation ?? null,
          longestRun: r.longestRun,
          bursts: r.bursts,
          score: r.score,
          lastVoteAt: r.lastVoteAt?.toISOString() ?? null,
        };
      }),
      total: answer.total,
      totalPages: answer.totalPages,
      computedAt: answer.computedAt?.toISOString() ?? null,
    };
  });

  serve(routes.raterVotes, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { page, limit } = request.query;
    const answer = await clients.vote.call.listRaterVotes({ userId: request.params.userId, page: { page, limit } }, { caller });
    const named = await accounts(answer.actions.map((a) => a.adminId));
    reply.header('cache-control', 'private, no-store');
    return {
      votes: answer.votes.map((v) => ({
        photoId: v.photoId,
        rating: v.rating,
        castAt: v.castAt?.toISOString() ?? null,
        consensus: v.consensus ?? null,
        voidedAt: v.voidedAt?.toISOString() ?? null,
        voidedBy: v.voidedBy ?? null,
        voidReason: v.voidReason ?? null,
        suspended: v.suspended,
      })),
      total: answer.total,
      totalPages: answer.totalPages,
      actions: answer.actions.map((a) => ({
        id: a.id,
        action: a.action === 'restore' ? ('restore' as const) : ('void' as const),
        adminId: a.adminId,
        adminName: memberName(named.get(a.adminId) ?? null),
        reason: a.reason,
        votes: a.votes,
        allVotes: a.allVotes,
        at: a.at?.toISOString() ?? null,
      })),
    };
  });

  serve(routes.voidVotes, async (request) => {
    const caller = await request.requireAdmin();
    const { photoIds, reason } = request.body;
    return clients.vote.call.voidVotes({ userId: request.params.userId, photoIds: photoIds ?? [], reason }, { caller });
  });

  serve(routes.restoreVotes, async (request) => {
    const caller = await request.requireAdmin();
    const { photoIds, reason } = request.body;
    return clients.vote.call.restoreVotes({ userId: request.params.userId, photoIds: photoIds ?? [], reason }, { caller });
  });
}
