import { useState } from 'react';
import { useUnauthorizedRedirect } from '@/hooks/use-unauthorized-redirect';
import type { GalleryFilterId } from '@/lib/types';
import { useGalleryPageQuery } from '@/queries/gallery';
import { GalleryEmptyState } from './gallery-empty-state';
import { DEFAULT_GALLERY_FILTER, GalleryFilterTiles, getGalleryFilter } from './gallery-filter-tiles';
import { GalleryGridSkeleton } from './gallery-grid-skeleton';
import { GalleryPhotoGrid } from './gallery-photo-grid';

export function GallerySection({ isSignedIn }: { isSignedIn: boolean }) {
  const [filter, setFilter] = useState<GalleryFilterId>(DEFAULT_GALLERY_FILTER);
  const { data, isLoading, error } = useGalleryPageQuery(filter, 1);
  useUnauthorizedRedirect(error);
  // A failed load reads as an empty gallery rather than an error screen.
  const photos = error ? [] : (data?.photos ?? []);
  const { label, description } = getGalleryFilter(filter);

  return (
    <section id="gallery" aria-labelledby="gallery-title" className="mx-auto w-full max-w-7xl scroll-mt-20 px-4 py-12 sm:px-6 lg:px-8">
      <GalleryFilterTiles selected={filter} onSelect={setFilter} isSignedIn={isSignedIn} />
      <div className="mt-10 mb-6">
        <h2 id="gallery-title" className="text-2xl font-bold tracking-tight">
          {label}
        </h2>
        <p className="text-muted-foreground">{description}</p>
      </div>
      {isLoading ? (
        <GalleryGridSkeleton />
      ) : photos.length === 0 ? (
        <GalleryEmptyState filter={filter} />
      ) : (
        <GalleryPhotoGrid photos={photos} />
      )}
    </section>
  );
}
