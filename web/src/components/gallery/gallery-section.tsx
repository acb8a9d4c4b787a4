import { useRef, useState } from 'react';
import { isUnauthorizedError } from '@/lib/api';
import { scrollToElementId } from '@/lib/browser';
import type { GalleryFilterId } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useGalleryPageQuery } from '@/queries/gallery';
import { GalleryEmptyState } from './gallery-empty-state';
import { DEFAULT_GALLERY_FILTER, GalleryFilterTiles, getGalleryFilter } from './gallery-filter-tiles';
import { GalleryGridSkeleton } from './gallery-grid-skeleton';
import { GalleryLoadError } from './gallery-load-error';
import { GalleryPagination } from './gallery-pagination';
import { GalleryPhotoGrid, LazyPhotoDialog } from './gallery-photo-grid';
import { GalleryStatsStrip } from './gallery-stats-strip';
import { useDeferredQuery } from './use-deferred-query';
import { usePhotoViewer } from './use-photo-viewer';

export const GALLERY_SECTION_ID = 'gallery';

/**
 * The community gallery: filter tiles, a page of photo cards, pagination and the stats strip. A new
 * filter starts again at page 1; a new page scrolls smoothly back to the top of the section. `leadsPage` when no hero
 * image comes before it (the signed-in home): the first card's image is then the page's to fetch first.
 */
export function GallerySection({ isSignedIn, leadsPage = false }: { isSignedIn: boolean; leadsPage?: boolean }) {
  const [selectedFilter, setSelectedFilter] = useState<GalleryFilterId>(DEFAULT_GALLERY_FILTER);
  const [page, setPage] = useState(1);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Need your Vote answers 401 when signed out: never ask for it then.
  const filter = !isSignedIn && getGalleryFilter(selectedFilter).requiresSignIn ? DEFAULT_GALLERY_FILTER : selectedFilter;
  const query = useGalleryPageQuery(filter, page);
  // Rendered as a transition: cards are the heaviest part of the page to render (see useDeferredQuery).
  const { data, isLoading, isPlaceholderData, error } = useDeferredQuery(query);

  // Pages can disappear (a vote empties the last page of Need your Vote): fall back to the last one.
  const totalPages = error ? 0 : (data?.totalPages ?? 0);
  if (data && !isPlaceholderData && totalPages > 0 && page > totalPages) setPage(totalPages);

  const photos = error ? [] : (data?.photos ?? []);
  const { label, description } = getGalleryFilter(filter);
  // Held here rather than in the grid, so that it stays open when a vote empties the list (Need your Vote).
  const viewer = usePhotoViewer(filter, photos);

  const selectFilter = (next: GalleryFilterId) => {
    setSelectedFilter(next);
    setPage(1);
  };

  const goToPage = (next: number) => {
    setPage(Math.min(Math.max(1, next), Math.max(1, totalPages)));
    scrollToElementId(GALLERY_SECTION_ID);
  };

  return (
    <section
      id={GALLERY_SECTION_ID}
      aria-labelledby="gallery-title"
      className="mx-auto w-full max-w-7xl scroll-mt-20 px-4 py-12 sm:px-6 lg:px-8"
    >
      <GalleryFilterTiles selected={filter} onSelect={selectFilter} isSignedIn={isSignedIn} />
      <div className="mt-10 mb-6">
        <h2 id="gallery-title" ref={headingRef} tabIndex={-1} className="text-2xl font-bold tracking-tight outline-none">
          {label}
        </h2>
        <p className="text-muted-foreground">{description}</p>
      </div>
      {isLoading ? (
        <GalleryGridSkeleton />
      ) : error && !isUnauthorizedError(error) ? (
        <GalleryLoadError onRetry={() => void query.refetch()} isRetrying={query.isFetching} />
      ) : viewer.gridPhotos.length === 0 ? (
        <GalleryEmptyState filter={filter} />
      ) : (
        <div
          aria-busy={isPlaceholderData || undefined}
          className={cn('transition-opacity', isPlaceholderData && 'pointer-events-none opacity-60')}
        >
          <GalleryPhotoGrid photos={viewer.gridPhotos} isSignedIn={isSignedIn} onView={viewer.open} leadsPage={leadsPage} />
        </div>
      )}
      {viewer.state && viewer.photo && (
        <LazyPhotoDialog
          photo={viewer.photo}
          open={viewer.state.open}
          onOpenChange={viewer.setOpen}
          position={{ index: viewer.state.index, count: viewer.state.photos.length }}
          onPrevious={viewer.previous}
          onNext={viewer.next}
          preload={viewer.preload}
          onVoted={viewer.onVoted}
          caughtUp={viewer.state.caughtUp}
          // The card of the photo last shown, if it is still listed; else the list's heading.
          returnFocusTo={() =>
            document.querySelector<HTMLElement>(`[data-photo-view="${viewer.photo?.id}"]`) ?? headingRef.current
          }
        />
      )}
      <GalleryPagination page={page} totalPages={totalPages} onPageChange={goToPage} className="mt-8" />
      <GalleryStatsStrip />
    </section>
  );
}
