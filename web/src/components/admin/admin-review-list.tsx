import { AlertTriangle, ChevronLeft, ChevronRight, ImageOff, Keyboard, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnauthorizedRedirect } from '@/hooks/use-unauthorized-redirect';
import { isUnauthorizedError } from '@/lib/api';
import { useAdminPhotosQuery, type AdminPhotoList } from '@/queries/admin';
import { adminFilter } from './admin-filters';
import { AdminPhotoCard } from './admin-photo-card';

/** SPEC §9: skeleton loaders show 3 or 4 placeholders. */
const SKELETON_COUNT = 3;

/** The review list for the chosen filter, a page at a time. */
export function AdminReviewList({
  list,
  page,
  onPageChange,
  currentUserId,
}: {
  list: AdminPhotoList;
  page: number;
  onPageChange: (page: number) => void;
  currentUserId: string | undefined;
}) {
  const { data, isPending, error, refetch, isRefetching } = useAdminPhotosQuery(list, page);
  useUnauthorizedRedirect(error);
  const filter = adminFilter(list);
  const headingId = `admin-list-${list}`;

  // A decision can empty the last page (its photo left the list): step back to the new last page.
  const lastPage = Math.max(1, data?.totalPages ?? 1);
  if (data && page > lastPage) onPageChange(lastPage);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
          {filter.label}
          {data && <span className="ml-2 text-base font-normal text-muted-foreground tabular-nums">({data.total})</span>}
        </h2>
        {list === 'pending' && (
          <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
            <Keyboard className="size-4" aria-hidden="true" />
            Focus a photo, then press <kbd className="rounded border bg-muted px-1.5 font-mono text-xs">A</kbd> to approve or{' '}
            <kbd className="rounded border bg-muted px-1.5 font-mono text-xs">R</kbd> to reject.
          </p>
        )}
      </div>

      {isPending ? (
        <div role="status" aria-label="Loading photos" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <div key={index} className="overflow-hidden rounded-xl border bg-card">
              <Skeleton className="aspect-[4/3] w-full rounded-none" />
              <div className="flex flex-col gap-3 p-4">
                <Skeleton className="h-5 w-3/4" />
                <Skeleton className="h-4 w-1/2" />
                <div className="flex gap-2">
                  <Skeleton className="h-9 w-24" />
                  <Skeleton className="h-9 w-20" />
                </div>
              </div>
            </div>
          ))}
        </div>
      ) : error ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
            <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
            <p className="font-medium">{isUnauthorizedError(error) ? 'Your session has ended.' : 'The photos could not be loaded.'}</p>
            <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
              <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : data.photos.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center text-muted-foreground">
            <ImageOff className="size-10" aria-hidden="true" />
            <p>{filter.empty}</p>
          </CardContent>
        </Card>
      ) : (
        <>
          <ul aria-labelledby={headingId} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {data.photos.map((photo) => (
              <AdminPhotoCard key={photo.id} photo={photo} currentUserId={currentUserId} />
            ))}
          </ul>
          {data.totalPages > 1 && (
            <nav aria-label="Pages" className="flex items-center justify-center gap-3">
              <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <span className="text-sm text-muted-foreground tabular-nums">
                Page {page} of {data.totalPages}
              </span>
              <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= data.totalPages}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
