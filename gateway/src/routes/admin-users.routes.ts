import type { FastifyInstance } from 'fastify';
import { routes, type AdminUser } from '@snapcracks/http-contract';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import type { UserDirectory } from '../user-directory.js';

/** A user as the admin list shows it (spec §3): `avatar` follows the avatar rule, null when only initials are left. */
export function toAdminUserJson(user: User): AdminUser {
  return {
    id: user.id,
    displayName: user.displayName ?? null,
    email: user.email ?? null,
    avatar: user.customProfileImage ? `/uploads/${encodeURIComponent(user.customProfileImage)}` : (user.profileImageUrl ?? null),
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    isEnabled: user.isEnabled,
    isAdmin: user.isAdmin,
    createdAt: user.createdAt?.toISOString() ?? null,
  };
}

/**
 * User management (spec §2, §7 Admin): the list, edits and deletion, one auth call each. The admin check runs before
 * the input is validated, so anyone else learns nothing from these routes (401 signed out, 403 otherwise); the auth
 * service checks the admin flag again and holds the rules (no locking oneself out, admins cannot be deleted).
 *
 * A change takes effect at the next request: this gateway updates its cached copy of the user at once, and every
 * other replica drops its copy when `auth.user.updated` / `auth.user.deleted` arrives (see UserDirectory), so a
 * disabled or deleted account's sessions are refused and a promotion or demotion applies everywhere.
 */
export default async function adminUserRoutes(app: FastifyInstance, { clients, users }: { clients: Clients; users: UserDirectory }) {
  const serve = contractRoutes(app);

  serve(routes.adminUsers, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { page, limit, q } = request.query;
    const answer = await clients.auth.call.listUsers({ page, limit, query: q?.trim() || undefined }, { caller });
    reply.header('cache-control', 'no-store');
    return { users: answer.users.map(toAdminUserJson), total: answer.total, totalPages: answer.totalPages };
  });

  serve(routes.updateUser, async (request) => {
    const caller = await request.requireAdmin();
    const { user } = await clients.auth.call.updateUser({ id: request.params.id, ...request.body }, { caller });
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    return toAdminUserJson(user);
  });

  serve(routes.deleteUser, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.auth.call.deleteUser({ id: request.params.id }, { caller });
    // The account is gone: its sessions here end at their next request (other replicas on auth.user.deleted).
    users.remember(request.params.id, null);
    return reply.code(204).send();
  });
}
