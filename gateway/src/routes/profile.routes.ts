import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { AVATAR, routes } from '@snapcracks/http-contract';
import type { Caller, OutgoingStream } from '@snapcracks/kit';
import type { StoreAvatarRequest, StoreAvatarResponse } from '@snapcracks/proto/storage/v1';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { contractRoutes } from '../contract-route.js';
import { MULTIPART_LIMIT_ERRORS, multipartReadError } from '../multipart-errors.js';
import { coalesceChunks } from '../streams/coalesce-chunks.js';
import type { UserDirectory } from '../user-directory.js';
import { toUserJson } from './auth.routes.js';

/** The avatar picker's types (spec §5) and our size limit; every refusal of the file says this. */
const AVATAR_REFUSED = AVATAR.refused;
const AVATAR_TOO_LARGE = AVATAR.tooLarge;
/** Room for the multipart framing around a 5 MB file. */
const MAX_AVATAR_REQUEST_BYTES = AVATAR.maxBytes + 16 * 1024;
const AVATAR_DEADLINE_MS = 60_000;
const DISCARD_WAIT_MS = 10_000;

/**
 * The member's own profile (spec §7 User): display name and avatar. Both answer the updated user, and this gateway
 * remembers it at once so /api/auth/user shows the change on the next read; other replicas drop their copy when
 * auth.user.updated arrives (see UserDirectory).
 *
 * An avatar streams from the browser to storage (never held whole here), which checks its bytes, crops it square and
 * stores a 256 px WebP; auth then points the account at it, and the avatar it replaced is deleted, best effort (the
 * orphaned-files cleanup removes any that a failure leaves behind).
 */
export default async function profileRoutes(app: FastifyInstance, { clients, users }: { clients: Clients; users: UserDirectory }) {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: AVATAR.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });
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
    if (!request.isMultipart()) throw new HttpError(400, AVATAR_REFUSED);
    if (Number(request.headers['content-length']) > MAX_AVATAR_REQUEST_BYTES) {
      reply.header('connection', 'close');
      throw new HttpError(413, AVATAR_TOO_LARGE);
    }
    let stored: StoreAvatarResponse;
    try {
      stored = await receiveAvatar(request, caller, clients);
    } catch (error) {
      await discardRest(request, reply);
      throw error;
    }
    let answer;
    try {
      answer = await clients.auth.call.setAvatar({ customProfileImage: stored.name }, { caller });
    } catch (error) {
      await deleteQuietly(request, clients, stored.name);
      throw error;
    }
    const { user, previousCustomProfileImage } = answer;
    if (!user) throw new Error('The auth service answered without a user');
    users.remember(user.id, user);
    if (previousCustomProfileImage) await deleteQuietly(request, clients, previousCustomProfileImage);
    reply.header('cache-control', 'no-store');
    return { user: toUserJson(user), ...(stored.facesDetected !== undefined ? { facesDetected: stored.facesDetected } : {}) };
  });
}

/**
 * Reads exactly one file part named `avatar` and streams it to storage as it arrives; anything else (another field,
 * a second file, a file cut at the limit) cancels the store, so a refused request stores nothing.
 */
async function receiveAvatar(request: FastifyRequest, caller: Caller, clients: Clients): Promise<StoreAvatarResponse> {
  let upload: OutgoingStream<StoreAvatarRequest, StoreAvatarResponse> | undefined;
  let failure: unknown;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field' || failure !== undefined || upload || part.fieldname !== 'avatar') {
        failure ??= new HttpError(400, AVATAR_REFUSED);
        if (part.type === 'file') part.file.resume();
        continue;
      }
      try {
        upload = clients.storage.clientStream('storeAvatar', { caller, deadlineMs: AVATAR_DEADLINE_MS });
        for await (const chunk of coalesceChunks(part.file)) await upload.send({ chunk });
        // At the size limit the stream ends quietly, marked truncated: never let a cut file through.
        if (part.file.truncated) throw new HttpError(413, AVATAR_TOO_LARGE);
      } catch (error) {
        // The file's bytes come from the parser too: a body cut short fails here, mid-file.
        failure = multipartReadError(error);
        part.file.resume();
      }
    }
  } catch (error) {
    failure ??= multipartReadError(error);
  }
  if (failure !== undefined) {
    upload?.cancel();
    const code = (failure as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, AVATAR_TOO_LARGE);
    if (typeof code === 'string' && MULTIPART_LIMIT_ERRORS.has(code)) throw new HttpError(400, AVATAR_REFUSED);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(400, AVATAR_REFUSED);
    throw failure;
  }
  if (!upload) throw new HttpError(400, AVATAR_REFUSED);
  return upload.finish();
}

async function deleteQuietly(request: FastifyRequest, clients: Clients, name: string): Promise<void> {
  try {
    await clients.storage.call.deleteAvatar({ name }, { caller: null, deadlineMs: 5_000 });
  } catch (error) {
    request.log.warn({ err: error, avatar: name }, 'could not delete an avatar blob; the orphaned-files cleanup will');
  }
}

/** After a refusal, reads and drops the rest of a bounded body so the browser sees our answer, not a reset. */
async function discardRest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
  if (Number(raw.headers['content-length']) <= MAX_AVATAR_REQUEST_BYTES) {
    await Promise.race([once(raw, 'end'), setTimeout(DISCARD_WAIT_MS)]).catch(() => undefined);
  }
  if (!raw.complete) reply.header('connection', 'close');
}
