import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ERRORS, routes, type ImageSize } from '@snapcracks/http-contract';
import type { Caller } from '@snapcracks/kit';
import type { ResolveImageResponse } from '@snapcracks/proto/photo/v1';
import type { BlobInfo, GetBlobResponse } from '@snapcracks/proto/storage/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import { IMAGE_SIZES, imageUrl } from '../photo-json.js';
import { toCaller } from '../plugins/current-user.js';

/** Photo file names are 32 hex digits and .webp: anything else is not ours, and never reaches a service. */
const PHOTO_FILENAME = /^[0-9a-f]{32}\.webp$/;
const ONE_YEAR = 365 * 24 * 60 * 60;
/**
 * How long a browser or a shared cache may keep a photo's image under its versioned URL, in seconds. Bounded, and
 * short: a version's bytes stop being served the moment bars change or the photo goes (below), and a cache that took
 * a copy before that gives it out for at most this long. Revalidating after it costs a 304 (ETag) while nothing changed.
 */
export const PHOTO_IMAGE_MAX_AGE = 60 * 60;

/**
 * GET /api/uploads/{filename}: the photo service decides, in one small call, which blob this caller may see
 * (approved photos to everyone with their bars burned in, the rest and every original only to the owner and
 * admins, 404 for anyone else: a removed photo is 404 to all); the bytes then stream from storage through here once.
 * `?v=` names the image version (it changes with the privacy bars): the current one is cached for PHOTO_IMAGE_MAX_AGE,
 * an earlier one redirects to the current one. `size=medium` of a photo that
 * has no medium image yet answers its display image, revalidated every time (never cached for good under the
 * versioned URL), so browsers get the medium image as soon as the backfill has made it.
 */
export default async function imageRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  contractRoutes(app)(routes.image, async (request, reply) => {
    const { filename } = request.params;
    if (!PHOTO_FILENAME.test(filename)) throw new HttpError(404, ERRORS.notFound);
    const user = await request.currentUser();
    const image = await resolveImage(clients, user ? toCaller(user) : null, filename, request.query.size);

    const { size, v: version } = request.query;
    // An earlier version's URL (bars changed since) never answers bytes: it sends the browser on to the current one,
    // so a cache revalidating what it kept under the old URL drops it.
    if (version !== undefined && version !== image.imageVersion) {
      return reply.header('cache-control', 'no-store').redirect(imageUrl(filename, size, image.imageVersion));
    }
    const etag = `"${image.etag}"`;
    const versioned = version === image.imageVersion && !image.fallback;
    // The current version's URL is cached for a bounded time; an unversioned one is checked again each time (cheap: 304).
    const cacheControl = `${image.public ? 'public' : 'private'}, ${versioned ? `max-age=${PHOTO_IMAGE_MAX_AGE}, must-revalidate` : 'no-cache'}`;
    reply.header('cache-control', cacheControl).header('etag', etag).header('vary', 'Cookie');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();

    const { info, bytes } = await openBlob(clients, image.blobKey, 60_000);
    reply.type(info.contentType || image.contentType).header('content-length', String(info.size)).header('content-disposition', 'inline');
    return reply.send(Readable.from(bytes));
  });
}

/**
 * Which blob of a photo's image of `size` the caller may see (the photo service's answer, photo.service.ts
 * `resolveImage`): NOT_FOUND for a photo they may not see. The one rule for GET /api/uploads and the member's copy of
 * their data.
 */
export function resolveImage(clients: Clients, caller: Caller | null, filename: string, size: ImageSize): Promise<ResolveImageResponse> {
  return clients.photo.call.resolveImage({ filename, variant: IMAGE_SIZES[size] }, { caller });
}

/** A blob from storage: its info, then its bytes as they stream (`close` gives up on them). */
export async function openBlob(
  clients: Clients,
  key: string,
  deadlineMs: number,
): Promise<{ info: BlobInfo; bytes: AsyncIterable<Buffer>; close(): Promise<void> }> {
  const stream = clients.storage.serverStream('getBlob', { key }, { caller: null, deadlineMs });
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.part?.$case !== 'info') throw new Error('Storage answered without the blob info');
  return {
    info: first.value.part.value,
    bytes: bytes(iterator),
    close: async () => {
      await iterator.return?.();
    },
  };
}

/** Avatars are stored as `avatars/<uuid>.webp`; the name never changes for other bytes, so they are cached for good. */
const AVATAR_FILENAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

/** GET /uploads/{customProfileImage}: members' avatars, public like the names shown beside them. */
export async function avatarRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  contractRoutes(app)(routes.avatarImage, async (request, reply) => {
    const { filename } = request.params;
    if (!AVATAR_FILENAME.test(filename)) throw new HttpError(404, ERRORS.notFound);
    const { info, bytes, close } = await openBlob(clients, `avatars/${filename}`, 30_000);
    const etag = `"${info.etag}"`;
    reply.header('cache-control', `public, max-age=${ONE_YEAR}, immutable`).header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) {
      await close();
      return reply.code(304).send();
    }
    reply.type(info.contentType).header('content-length', String(info.size)).header('content-disposition', 'inline');
    return reply.send(Readable.from(bytes));
  });
}

async function* bytes(iterator: AsyncIterator<GetBlobResponse>): AsyncIterable<Buffer> {
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (next.value.part?.$case === 'chunk') yield next.value.part.value;
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
