import { GALLERY } from '@snapcracks/http-contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { PhotoPreview } from '@/lib/types';

/** SPEC §9: the hero fetches 20 photos and shows 4 random ones. */
export const LANDING_PREVIEW_POOL = GALLERY.heroFetch;
export const LANDING_PREVIEW_COUNT = GALLERY.heroShown;

/** Up to `count` distinct items in random order (Fisher–Yates on a copy). */
export function pickRandom<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

/**
 * Up to four random photos of the newest twenty for the landing hero; an empty list when the call fails.
 * The pick is made when the list is fetched and cached with it, so the previews stay the same for the
 * page's life instead of reshuffling on every render or remount.
 */
export function useLandingPreviewPhotos() {
  return useQuery({
    queryKey: ['photos', 'previews', { limit: LANDING_PREVIEW_POOL }],
    queryFn: async (): Promise<PhotoPreview[]> => {
      try {
        const photos = await api.photos.list(LANDING_PREVIEW_POOL);
        return Array.isArray(photos) ? pickRandom(photos, LANDING_PREVIEW_COUNT) : [];
      } catch {
        return [];
      }
    },
  });
}
