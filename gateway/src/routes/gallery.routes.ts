import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GALLERY, routes, type GalleryFilter as GalleryFilterName } from '@snapcracks/http-contract';
import { GalleryFilter } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { contractRoutes, isOneOf } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import { toGalleryPhotoJson, imageUrl } from '../photo-json.js';
import type { CachedPage, PublicPageCache } from '../public-page-cache.js';
import type { PersonalFeed } from '../feed/personal-feed.js';

/** The gallery's filters as the web app names them (spec §7). */
export const GALLERY_FILTERS: Record<GalleryFilterName, GalleryFilter> = {
  'top-rated': GalleryFilter.GALLERY_FILTER_TOP_RATED,
  'need-your-vote': GalleryFilter.GALLERY_FILTER_NEED_YOUR_VOTE,
  'new-today': GalleryFilter.GALLERY_FILTER_NEW_TODAY,
  'new-this-week': GalleryFilter.GALLERY_FILTER_NEW_THIS_WEEK,
  'new-this-month': GalleryFilter.GALLERY_FILTER_NEW_THIS_MONTH,
  'all-snaps': GalleryFilter.GALLERY_FILTER_ALL_SNAPS,
};

/** The UTC day: new-* pages change membership at midnight, so a cached page is keyed by it. */
function utcDay(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Sends a cached public page: the same bytes to everyone, revalidated by ETag on every use. */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage): FastifyReply {
  request.sharedPage = true;
  reply.header('cache-control', 'no-cache').header('etag', page.etag);
  if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(page.body);
}

/**
 * The public read path (spec §7 Photos): gallery pages, landing previews and the stats strip. One backend call per
 * request at most; the pages everyone sees alike come from the cache that photo and vote events clear.
 */
export default async function galleryRoutes(
  app: FastifyInstance,
  { clients, cache, feed }: { clients: Clients; cache: PublicPageCache; feed: PersonalFeed },
) {
  const serve = contractRoutes(app);

  serve(routes.galleryPage, async (request, reply) => {
    const { filter } = request.params;
    if (!isOneOf(GALLERY.filters, filter)) throw new HttpError(404, GALLERY.unknownFilter);
    const { page, limit } = request.query;
    const load = async (caller: Parameters<typeof clients.photo.call.getGalleryPage>[1]['caller']) => {
      const answer = await clients.photo.call.getGalleryPage({ filter: GALLERY_FILTERS[filter], page: { page, limit } }, { caller });
      return { photos: answer.photos.map(toGalleryPhotoJson), total: answer.total, totalPages: answer.totalPages };
    };
    if (filter === 'need-your-vote') {
      const caller = await request.requireMember();
      reply.header('cache-control', 'private, no-store');
      return (await feed.page(caller.userId, page, limit)) ?? load(caller);
    }
    return sendPage(request, reply, await cache.get(`gallery:${filter}:${page}:${limit}:${utcDay()}`, () => load(null), request.url));
  });

  serve(routes.photoPreviews, async (request, reply) => {
    const { limit } = request.query;
    const page = await cache.get(`previews:${limit}`, async () => {
      const { photos } = await clients.photo.call.listPublicPhotos({ limit }, { caller: null });
      return photos.map((p) => ({
        id: p.id,
        filename: p.filename,
        description: p.description ?? null,
        altText: p.altText ?? null,
        thumbnailUrl: imageUrl(p.filename, 'thumb', p.imageVersion),
        mediumUrl: imageUrl(p.filename, 'medium', p.imageVersion),
        displayUrl: imageUrl(p.filename, 'display', p.imageVersion),
      }));
    }, request.url);
    return sendPage(request, reply, page);
  });

  serve(routes.galleryStats, async (request, reply) => {
    const page = await cache.get('stats:gallery', async () => {
      const stats = await clients.stats.call.getGalleryStats({}, { caller: null });
      return {
        photoCount: stats.photoCount,
        totalVotes: stats.totalVotes,
        ratedFourOrHigher: stats.ratedFourOrHigher,
        distinctUploaders: stats.distinctUploaders,
      };
    }, request.url);
    return sendPage(request, reply, page);
  });
}
