import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { GalleryFilterId } from '@/lib/types';

export const GALLERY_PAGE_SIZE = 9;

export function galleryQueryKey(filter: GalleryFilterId, page: number, limit = GALLERY_PAGE_SIZE) {
  return ['/api/gallery', filter, { page, limit }] as const;
}

/** One page of the gallery for a filter. */
export function useGalleryPageQuery(filter: GalleryFilterId, page = 1) {
  return useQuery({
    queryKey: galleryQueryKey(filter, page),
    queryFn: () => api.gallery.page(filter, page, GALLERY_PAGE_SIZE),
  });
}
