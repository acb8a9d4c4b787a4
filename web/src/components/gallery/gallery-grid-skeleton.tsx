import { Skeleton } from '@/components/ui/skeleton';

/** SPEC §9: skeleton loaders show 3 or 4 placeholders; three fill the first row of the grid. */
export const GALLERY_SKELETON_COUNT = 3;

export function GalleryGridSkeleton() {
  return (
    <div role="status" aria-label="Loading photos" className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: GALLERY_SKELETON_COUNT }, (_, index) => (
        <div key={index} className="overflow-hidden rounded-xl border bg-card shadow-sm">
          <Skeleton className="aspect-[4/3] w-full rounded-none" />
          <div className="space-y-3 p-4">
            <Skeleton className="h-5 w-3/4" />
            <div className="flex items-center justify-between">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-4 w-16" />
            </div>
            <Skeleton className="h-9 w-20" />
          </div>
        </div>
      ))}
    </div>
  );
}
