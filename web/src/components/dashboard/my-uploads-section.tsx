import { Link } from 'react-router-dom';
import { AlertTriangle, Camera, Images, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { isUnauthorizedError } from '@/lib/api';
import type { UserPhoto } from '@/lib/types';
import { useUserPhotosQuery } from '@/queries/user-photos';
import { UploadAllowanceNote } from '@/components/upload/upload-allowance-note';
import { UserPhotoCard } from './user-photo-card';

const SKELETON_COUNT = 3;

/** The caller's photos at every status, newest first, with edit and delete (SPEC §2 Dashboard). */
export function MyUploadsSection() {
  const { data, isPending, error, refetch, isRefetching } = useUserPhotosQuery();
  const photos = sortNewestFirst(data ?? []);

  return (
    <section aria-labelledby="my-uploads-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="my-uploads-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <Images className="size-6 text-primary" aria-hidden="true" />
            My Uploads
          </h2>
          <p className="mt-1 text-muted-foreground">Edit, hide private details in, or delete the photos you shared.</p>
        </div>
        {data && photos.length > 0 && (
          <p className="text-sm text-muted-foreground">
            {photos.length} {photos.length === 1 ? 'photo' : 'photos'}
          </p>
        )}
      </div>

      <UploadAllowanceNote />
      {isPending ? (
        <MyUploadsSkeleton />
      ) : error ? (
        isUnauthorizedError(error) ? (
          <MyUploadsSkeleton />
        ) : (
          <MyUploadsError onRetry={() => void refetch()} isRetrying={isRefetching} />
        )
      ) : photos.length === 0 ? (
        <MyUploadsEmpty />
      ) : (
        <ul aria-label="My uploads" className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {photos.map((photo) => (
            <UserPhotoCard key={photo.id} photo={photo} />
          ))}
        </ul>
      )}
    </section>
  );
}

function sortNewestFirst(photos: UserPhoto[]): UserPhoto[] {
  if (!Array.isArray(photos)) return [];
  return [...photos].sort((a, b) => (Date.parse(b.createdAt ?? '') || 0) - (Date.parse(a.createdAt ?? '') || 0));
}

function MyUploadsSkeleton() {
  return (
    <div role="status" aria-label="Loading your uploads" className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: SKELETON_COUNT }, (_, index) => (
        <div key={index} className="overflow-hidden rounded-xl border bg-card">
          <Skeleton className="aspect-[4/3] w-full rounded-none" />
          <div className="space-y-3 p-4">
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-4 w-1/2" />
            <div className="flex gap-2 pt-1">
              <Skeleton className="h-11 w-20 sm:h-9" />
              <Skeleton className="h-11 w-24 sm:h-9" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

function MyUploadsEmpty() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Camera className="size-7" aria-hidden="true" />
        </div>
        <h3 className="text-xl font-semibold">No uploads yet</h3>
        <p className="max-w-md text-muted-foreground">
          Photos you share appear here while they are reviewed, and stay here once they are live.
        </p>
        <Button asChild className="mt-2">
          <Link to="/upload">
            <Camera aria-hidden="true" />
            Snap a Crack
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function MyUploadsError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
        <h3 className="text-xl font-semibold">Could not load your uploads</h3>
        <p className="max-w-md text-muted-foreground">Something went wrong while loading your photos.</p>
        <Button variant="outline" className="mt-2" onClick={onRetry} disabled={isRetrying}>
          <RotateCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
          Try Again
        </Button>
      </CardContent>
    </Card>
  );
}
