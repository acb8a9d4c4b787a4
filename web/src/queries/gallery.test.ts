import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeGalleryPage, makeGalleryPhoto } from '@/components/photo/test-fixtures';
import { createQueryClient } from '@/lib/query-client';
import type { GalleryPage, VoteResult } from '@/lib/types';
import { mockFetch } from '@/test/fetch-mock';
import {
  applyVoteToGalleryCache,
  applyVotesToPage,
  clearJustVoted,
  fetchGalleryPage,
  galleryQueryKey,
  galleryStatsQueryKey,
  getJustVoted,
  JUST_VOTED_TTL_MS,
  rememberJustVoted,
} from './gallery';

const VOTE: VoteResult = { rating: 5, averageRating: 4.5, voteCount: 3 };
const photos = [1, 2, 3].map((id) => makeGalleryPhoto({ id }));

afterEach(() => {
  clearJustVoted();
  vi.useRealTimers();
});

describe('applyVotesToPage', () => {
  it('drops voted photos from Need your Vote and recounts the pages', () => {
    const page = makeGalleryPage(photos, 10, 9);
    const next = applyVotesToPage(page, 'need-your-vote', 9, new Map([[2, VOTE]]));
    expect(next.photos.map((photo) => photo.id)).toEqual([1, 3]);
    expect(next).toMatchObject({ total: 9, totalPages: 1 });
  });

  it('shows the new totals elsewhere, and returns the same page when nothing changes', () => {
    const page = makeGalleryPage(photos);
    const next = applyVotesToPage(page, 'top-rated', 9, new Map([[2, VOTE]]));
    expect(next.photos[1]).toMatchObject({ id: 2, averageRating: 4.5, voteCount: 3 });
    expect(next.photos[0]).toBe(page.photos[0]);
    expect(applyVotesToPage(page, 'top-rated', 9, new Map([[99, VOTE]]))).toBe(page);
    expect(applyVotesToPage(page, 'need-your-vote', 9, new Map())).toBe(page);
  });
});

describe('just-voted photos', () => {
  it('are forgotten after about ten seconds', () => {
    rememberJustVoted(2, VOTE, 1_000);
    expect([...getJustVoted(1_000 + JUST_VOTED_TTL_MS - 1).keys()]).toEqual([2]);
    expect(getJustVoted(1_000 + JUST_VOTED_TTL_MS).size).toBe(0);
    expect(JUST_VOTED_TTL_MS).toBe(10_000);
  });

  it('are filtered out of a Need your Vote page fetched while the read model still lists them', async () => {
    vi.useFakeTimers();
    mockFetch({ 'GET /api/gallery/need-your-vote?page=1&limit=9': { body: makeGalleryPage(photos) } });
    rememberJustVoted(1, VOTE);
    await expect(fetchGalleryPage('need-your-vote', 1)).resolves.toMatchObject({ total: 2 });
    const fetched = await fetchGalleryPage('need-your-vote', 1);
    expect(fetched.photos.map((photo) => photo.id)).toEqual([2, 3]);

    vi.advanceTimersByTime(JUST_VOTED_TTL_MS);
    const later = await fetchGalleryPage('need-your-vote', 1);
    expect(later.photos.map((photo) => photo.id)).toEqual([1, 2, 3]);
  });

  it('keep their new totals in other filters fetched meanwhile', async () => {
    mockFetch({ 'GET /api/gallery/top-rated?page=1&limit=9': { body: makeGalleryPage(photos) } });
    rememberJustVoted(3, VOTE);
    const fetched = await fetchGalleryPage('top-rated', 1);
    expect(fetched.photos[2]).toMatchObject({ averageRating: 4.5, voteCount: 3 });
  });
});

describe('applyVoteToGalleryCache', () => {
  it('patches every cached page, drops the photo from Need your Vote and invalidates the gallery and stats', async () => {
    const queryClient: QueryClient = createQueryClient();
    mockFetch({});
    queryClient.setQueryData(galleryQueryKey('top-rated', 1), makeGalleryPage(photos));
    queryClient.setQueryData(galleryQueryKey('all-snaps', 2), makeGalleryPage([photos[1]!], 10));
    queryClient.setQueryData(galleryQueryKey('need-your-vote', 1), makeGalleryPage(photos));
    queryClient.setQueryData(galleryStatsQueryKey, { photoCount: 3, totalVotes: 6, ratedFourOrHigher: 3, distinctUploaders: 1 });

    await applyVoteToGalleryCache(queryClient, 2, VOTE);

    const page = (filter: Parameters<typeof galleryQueryKey>[0], number: number) =>
      queryClient.getQueryData<GalleryPage>(galleryQueryKey(filter, number))!;
    expect(page('top-rated', 1).photos[1]).toMatchObject({ averageRating: 4.5, voteCount: 3 });
    expect(page('all-snaps', 2).photos[0]).toMatchObject({ averageRating: 4.5, voteCount: 3 });
    expect(page('need-your-vote', 1).photos.map((photo) => photo.id)).toEqual([1, 3]);
    expect(queryClient.getQueryState(galleryQueryKey('top-rated', 1))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(galleryStatsQueryKey)?.isInvalidated).toBe(true);
    expect([...getJustVoted().keys()]).toEqual([2]);
  });
});
