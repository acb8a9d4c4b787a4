import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clients } from '../clients.js';
import { memberLimit } from '../plugins/member-limits.js';
import { acceptMultipart, streamOneFile } from '../multipart/one-file.js';
import type { UserDirectory } from '../user-directory.js';
import { toUserJson, userJson } from './auth.routes.js';

const DISPLAY_NAME_REQUIRED = 'Display name is required';
const DISPLAY_NAME_TOO_LONG = 'Display name must be 50 characters or less';
/** The avatar picker's types (spec §5) and our size limit; every refusal of the file says this. */
export const AVATAR_REFUSED = 'Only JPG, JPEG or PNG images up to 5MB are accepted';
export const AVATAR_TOO_LARGE = 'The avatar must be 5MB or less';
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
/** Room for the multipart framing around a 5 MB file. */
const MAX_AVATAR_REQUEST_BYTES = MAX_AVATAR_BYTES + 16 * 1024;
const AVATAR_DEADLINE_MS = 60_000;

/** The auth service says the same (spec §5); checked here so bad input never costs a call. */
const profileBody = z.object(
  { displayName: z.string({ error: DISPLAY_NAME_REQUIRED }).trim().min(1, DISPLAY_NAME_REQUIRED).max(50, DISPLAY_NAME_TOO_LONG) },
  { error: DISPLAY_NAME_REQUIRED },
);
const avatarJson = z.object({ user: userJson, facesDetected: z.number().int().optional() });

/**
 * The member's own profile (spec §7 User): display name and avatar. Both answer the updated user, and this gateway
 * remembers it at once so /api/auth/user shows the change on the next read; other replicas drop their copy when
 * auth.user.updated arrives (see UserDirectory).
 *
 * An avatar streams from the browser through auth to storage (never held whole here) in the one call the route makes:
 * storage checks its bytes, crops it square and stores a 256 px WebP; auth points the account at it and deletes the
 * avatar it replaced, best effort (the orphaned-files cleanup removes any that a failure leaves behind).
 */
export default async function profileRoutes(app: FastifyInstance, { clients, users }: { clients: Clients; users: UserDirectory }) {
  await acceptMultipart(app, { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 });
  const route = app.withTypeProvider<ZodTypeProvider>();
  const memberFirst = { preValidation: async (request: FastifyRequest) => void (await request.requireMember()) };

  route.put('/api/profile', { ...memberFirst, schema: { body: profileBody, response: { 200: userJson } } }, async (request, reply) => {
    const caller = await request.requireMember();
    const { user } = await clients.auth.call.updateProfile({ displayName: request.body.displayName }, { caller });
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    reply.header('cache-control', 'no-store');
    return toUserJson(user);
  });

  // Per member (RATE_LIMIT_AVATARS): each avatar is decoded and re-encoded.
  route.post('/api/profile/avatar', { ...memberLimit(app, 'avatars'), schema: { response: { 200: avatarJson } } }, async (request, reply) => {
    const caller = await request.requireMember();
    const { user, facesDetected } = await streamOneFile(request, reply, {
      field: 'avatar',
      maxRequestBytes: MAX_AVATAR_REQUEST_BYTES,
      refused: AVATAR_REFUSED,
      tooLarge: AVATAR_TOO_LARGE,
      overOtherLimits: 'refused',
      open: () => clients.auth.clientStream('uploadAvatar', { caller, deadlineMs: AVATAR_DEADLINE_MS }),
      chunk: (chunk) => ({ chunk }),
    });
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    reply.header('cache-control', 'no-store');
    return { user: toUserJson(user), ...(facesDetected !== undefined ? { facesDetected } : {}) };
  });
}
