import type { FastifyInstance } from 'fastify';
import { AVATAR, routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { acceptMultipart, streamOneFile } from '../multipart/one-file.js';
import type { UserDirectory } from '../user-directory.js';
import { toUserJson } from './auth.routes.js';

/** Room for the multipart framing around a 5 MB file. */
const MAX_AVATAR_REQUEST_BYTES = AVATAR.maxBytes + 16 * 1024;
const AVATAR_DEADLINE_MS = 60_000;

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
  await acceptMultipart(app, { fileSize: AVATAR.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 });
  const serve = contractRoutes(app);

  serve(routes.updateProfile, async (request, reply) => {
    const caller = await request.requireMember();
    const { user } = await clients.auth.call.updateProfile({ displayName: request.body.displayName }, { caller });
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    reply.header('cache-control', 'no-store');
    return toUserJson(user);
  });

  // Per member (RATE_LIMIT_AVATARS): each avatar is decoded and re-encoded.
  serve(routes.uploadAvatar, async (request, reply) => {
    const caller = await request.requireMember();
    const { user, facesDetected } = await streamOneFile(request, reply, {
      field: 'avatar',
      maxRequestBytes: MAX_AVATAR_REQUEST_BYTES,
      refused: AVATAR.refused,
      tooLarge: AVATAR.tooLarge,
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
