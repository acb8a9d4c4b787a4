import { GALLERY } from '@snapcracks/http-contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { GalleryFilterId, GalleryPage, GalleryPhoto, VoteResult } from '@/lib/types';

/** SPEC §9: gallery page size. */
export const GALLERY_PAGE_SIZE = GALLERY.pageSize;

/** Every cached gallery page starts with this. */
const GALLERY_QUERY_ROOT = 'gallery';
export const galleryStatsQueryKey = ['stats', 'gallery'] as const;

export function galleryQueryKey(filter: GalleryFilterId, page: number, limit = GALLERY_PAGE_SIZE) {
  return [GALLERY_QUERY_ROOT, filter, { page, limit }] as const;
}

type GalleryQueryKey = ReturnType<typeof galleryQueryKey>;

/**
 * Photos the caller has just rated, with the totals the vote answered, kept for a few seconds.
 *
 * The gallery's read model learns of a vote from an event a few milliseconds after the vote's response,
 * so a page fetched right after voting can still list the photo under Need your Vote, or show its old
 * average. Pages fetched while an entry lives are corrected with it.
 */
export const JUST_VOTED_TTL_MS = 10_000;
const justVoted = new Map<number, { result: VoteResult; expiresAt: number }>();

export function rememberJustVoted(photoId: number, result: VoteResult, now = Date.now()): void {
  justVoted.set(photoId, { result, expiresAt: now + JUST_VOTED_TTL_MS });
}

/** The live entries, by photo id; expired ones are dropped. */
export function getJustVoted(now = Date.now()): ReadonlyMap<number, VoteResult> {
  const live = new Map<number, VoteResult>();
  for (const [photoId, entry] of justVoted) {
    if (entry.expiresAt <= now) justVoted.delete(photoId);
    else live.set(photoId, entry.result);
  }
  return live;
}

/** Forgets every just-voted photo (between tests). */
export function clearJustVoted(): void {
  justVoted.clear();
}

function withTotals(photo: GalleryPhoto, { averageRating, voteCount }: VoteResult): GalleryPhoto {
  return photo.averageRating === averageRating && photo.voteCount === voteCount
    ? photo
    : { ...photo, averageRating, voteCount };
}

/**
 * Applies the caller's recent votes to a gallery page: their photos leave Need your Vote, and elsewhere
 * show the totals the vote answered.
 */
export function applyVotesToPage(
  page: GalleryPage,
  filter: GalleryFilterId,
  limit: number,
  votes: ReadonlyMap<number, VoteResult>,
): GalleryPage {
  if (votes.size === 0) return page;
  if (filter === 'need-your-vote') {
    const photos = page.photos.filter((photo) => !votes.has(photo.id));
    const removed = page.photos.length - photos.length;
    if (removed === 0) return page;
    const total = Math.max(0, page.total - removed);
    return { photos, total, totalPages: Math.ceil(total / limit) };
  }
  let changed = false;
  const photos = page.photos.map((photo) => {
    const vote = votes.get(photo.id);
    if (!vote) return photo;
    const next = withTotals(photo, vote);
    changed ||= next !== photo;
    return next;
  });
  return changed ? { ...page, photos } : page;
}

export async function fetchGalleryPage(filter: GalleryFilterId, page: number, limit = GALLERY_PAGE_SIZE) {
  const data = await api.gallery.page(filter, page, limit);
  return applyVotesToPage(data, filter, limit, getJustVoted());
}

/**
 * One page of the gallery for a filter. While the next page of the same filter loads, the current one
 * stays on screen (no layout jump); a different filter starts from its skeleton instead of showing the
 * previous filter's photos under the new title. Need your Vote is never asked for when signed out.
 */
export function useGalleryPageQuery(filter: GalleryFilterId, page = 1, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: galleryQueryKey(filter, page),
    queryFn: () => fetchGalleryPage(filter, page, GALLERY_PAGE_SIZE),
    enabled,
    placeholderData: (previous, previousQuery) =>
      previousQuery && (previousQuery.queryKey as GalleryQueryKey)[1] === filter ? previous : undefined,
  });
}

/** The community's totals for the stats strip. */
export function useGalleryStatsQuery() {
  return useQuery({ queryKey: galleryStatsQueryKey, queryFn: api.gallery.stats });
}

/**
 * After a vote: every cached gallery page shows the photo's new totals, cached Need your Vote pages drop
 * it at once, and the pages and the stats are refetched (corrected by the just-voted entries meanwhile).
 */
export function applyVoteToGalleryCache(queryClient: QueryClient, photoId: number, result: VoteResult): Promise<void> {
  rememberJustVoted(photoId, result);
  const votes = new Map([[photoId, result]]);
  for (const [queryKey, data] of queryClient.getQueriesData<GalleryPage>({ queryKey: [GALLERY_QUERY_ROOT] })) {
    if (!data) continue;
    const [, filter, { limit }] = queryKey as GalleryQueryKey;
    const next = applyVotesToPage(data, filter, limit, votes);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [GALLERY_QUERY_ROOT] }),
    queryClient.invalidateQueries({ queryKey: galleryStatsQueryKey }),
  ]).then(() => undefined);
}
