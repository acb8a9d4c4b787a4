import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Clients } from '../clients.js';
import type { UserDirectory } from '../user-directory.js';

const PAGE_MESSAGE = 'page must be a whole number from 1 to 100000';
const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';
const SEARCH_MESSAGE = 'Search must be 100 characters or less';
const DISPLAY_NAME_REQUIRED = 'Display name is required';
const DISPLAY_NAME_TOO_LONG = 'Display name must be 50 characters or less';
const EMAIL_INVALID = 'Please enter a valid email address';
const FLAG_MESSAGE = (name: string) => `${name} must be true or false`;

const wholeNumber = (message: string, max: number) =>
  z
    .string({ error: message })
    .regex(/^[1-9]\d{0,5}$/, message)
    .transform(Number)
    .refine((n) => n <= max, message);

const listQuery = z.object({
  page: wholeNumber(PAGE_MESSAGE, 100_000).default(1),
  limit: wholeNumber(LIMIT_MESSAGE, 100).default(20),
  q: z.string({ error: SEARCH_MESSAGE }).max(100, SEARCH_MESSAGE).optional(),
});

/** The auth service says the same (spec §5); checked here so bad input never costs a call. */
const editBody = z.object(
  {
    displayName: z.string({ error: DISPLAY_NAME_REQUIRED }).trim().min(1, DISPLAY_NAME_REQUIRED).max(50, DISPLAY_NAME_TOO_LONG).optional(),
    email: z.string({ error: EMAIL_INVALID }).trim().email(EMAIL_INVALID).optional(),
    isEnabled: z.boolean({ error: FLAG_MESSAGE('isEnabled') }).optional(),
    isAdmin: z.boolean({ error: FLAG_MESSAGE('isAdmin') }).optional(),
  },
  { error: 'Send the changes as a JSON object' },
);

const userIdParams = z.object({ id: z.string().min(1).max(200) });

/** A user as the admin list shows it (spec §3): `avatar` follows the avatar rule, null when only initials are left. */
export const adminUserJson = z.object({
  id: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isEnabled: z.boolean(),
  isAdmin: z.boolean(),
  createdAt: z.string().nullable(),
});
const userPageJson = z.object({ users: z.array(adminUserJson), total: z.number(), totalPages: z.number() });

export function toAdminUserJson(user: User): z.infer<typeof adminUserJson> {
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
  const route = app.withTypeProvider<ZodTypeProvider>();
  const adminFirst = { preValidation: async (request: FastifyRequest) => void (await request.requireAdmin()) };

  route.get('/api/admin/users', { ...adminFirst, schema: { querystring: listQuery, response: { 200: userPageJson } } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { page, limit, q } = request.query;
    const answer = await clients.auth.call.listUsers({ page, limit, query: q?.trim() || undefined }, { caller });
    reply.header('cache-control', 'no-store');
    return { users: answer.users.map(toAdminUserJson), total: answer.total, totalPages: answer.totalPages };
  });

  route.patch('/api/admin/users/:id', { ...adminFirst, schema: { params: userIdParams, body: editBody, response: { 200: adminUserJson } } }, async (request) => {
    const caller = await request.requireAdmin();
    const { user } = await clients.auth.call.updateUser({ id: request.params.id, ...request.body }, { caller });
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    return toAdminUserJson(user);
  });

  route.delete('/api/admin/users/:id', { ...adminFirst, schema: { params: userIdParams } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.auth.call.deleteUser({ id: request.params.id }, { caller });
    // The account is gone: its sessions here end at their next request (other replicas on auth.user.deleted).
    users.remember(request.params.id, null);
    return reply.code(204).send();
  });
}
