import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { PhotoPreview } from '@/lib/types';

export const LANDING_PREVIEW_COUNT = 4;

function pickRandom<T>(items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

// Module-level so TanStack Query memoizes the pick: the previews do not reshuffle on every render.
const selectLandingPreviews = (photos: PhotoPreview[]) => pickRandom(photos, LANDING_PREVIEW_COUNT);

/** Up to four random public photos for the landing hero; an empty list when the call fails. */
export function useLandingPreviewPhotos() {
  return useQuery({
    queryKey: ['/api/photos'],
    queryFn: async () => {
      try {
        const photos = await api.photos.list();
        return Array.isArray(photos) ? photos : [];
      } catch {
        return [];
      }
    },
    select: selectLandingPreviews,
  });
}

/** The signed-in user's own photos (GET /api/user/photos), shown in the dashboard's My Uploads. */
export const userPhotosQueryKey = ['/api/user/photos'] as const;
/** The signed-in user's dashboard statistics (GET /api/user/stats). */
export const userStatsQueryKey = ['/api/user/stats'] as const;
