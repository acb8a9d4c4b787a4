import { useRef, useState } from 'react';
import { AlertTriangle, Check, ImageOff, RotateCw, Trash2, Users } from 'lucide-react';
import { photoImageAlt, photoLabel } from '@/components/dashboard/photo-label';
import { PhotoStatusBadge } from '@/components/dashboard/photo-status-badge';
import { GalleryPagination } from '@/components/gallery/gallery-pagination';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getServerMessage } from '@/lib/api';
import { formatCountOf, formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { ReportedPhoto, ReportedPhotoOrder } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useDecideReportsMutation, useReportedPhotosQuery } from '@/queries/reports';
import { ContainedPhoto } from './contained-photo';
import { RejectPhotoDialog } from './reject-photo-dialog';
import { ReportGroups } from './report-groups';

const ORDERS: { id: ReportedPhotoOrder; label: string }[] = [
  { id: 'newest', label: 'Newest report first' },
  { id: 'most-reported', label: 'Most reported first' },
];

/**
 * Photos members reported, with their reports grouped by category and the admin's two decisions: dismiss (the photo
 * stays, or returns to the gallery where it was) and remove with a reason the uploader sees. Reporters are never named.
 */
export function ReportedPhotosList() {
  const [order, setOrder] = useState<ReportedPhotoOrder>('newest');
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<ReportedPhoto | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { data, isPending, error, refetch, isRefetching } = useReportedPhotosQuery(order, page);
  const decide = useDecideReportsMutation((e) => ({ title: 'Error', description: getServerMessage(e, 'Failed to decide the reports. Please try again.') }));

  const dismiss = (reported: ReportedPhoto) =>
    decide.mutate(
      { photoId: reported.photoId, decision: 'dismiss' },
      { onSuccess: () => toast({ title: 'Reports Dismissed', description: reported.photo?.underReview ? 'The photo is back in the gallery.' : 'The photo stays in the gallery.' }) },
    );
  const remove = (reported: ReportedPhoto, reason: string) =>
    decide.mutate(
      { photoId: reported.photoId, decision: 'remove', reason },
      {
        onSuccess: () => {
          setRemoving(null);
          toast({ title: 'Photo Removed', description: 'The uploader sees your reason; the reporters see that it was removed.' });
        },
      },
    );

  return (
    <section aria-labelledby="reported-photos-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="reported-photos-title" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
            Reported Photos
          </h2>
          <p className="text-sm text-muted-foreground">Photos that enough members reported are out of the gallery until you decide.</p>
        </div>
        <div role="group" aria-label="Order" className="inline-flex rounded-md border p-0.5">
          {ORDERS.map(({ id, label }) => (
            <Button
              key={id}
              size="sm"
              variant={order === id ? 'secondary' : 'ghost'}
              aria-pressed={order === id}
              onClick={() => {
                setOrder(id);
                setPage(1);
              }}
            >
              {label}
            </Button>
          ))}
        </div>
      </div>

      {isPending ? (
        <div role="status" aria-label="Loading reported photos" className="grid grid-cols-1 gap-6 md:grid-cols-2">
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-96 w-full rounded-xl" />
          ))}
        </div>
      ) : error ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border p-6">
          <AlertTriangle className="size-5 text-destructive" aria-hidden="true" />
          <span>Reported photos could not be loaded.</span>
          <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw className={cn(isRefetching && 'animate-spin')} aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : data.photos.length === 0 ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">No photos have open reports.</p>
      ) : (
        <>
          <ul aria-label="Reported photos" className="grid grid-cols-1 gap-6 md:grid-cols-2">
            {data.photos.map((reported) => (
              <ReportedPhotoCard
                key={reported.photoId}
                reported={reported}
                busy={decide.isPending && decide.variables?.photoId === reported.photoId}
                onDismiss={() => dismiss(reported)}
                onRemove={() => setRemoving(reported)}
              />
            ))}
          </ul>
          <GalleryPagination page={page} totalPages={data.totalPages} onPageChange={setPage} label="Reported photos pages" />
        </>
      )}

      <RejectPhotoDialog
        mode="remove"
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        photoLabel={removing?.photo ? photoLabel(removing.photo) : `Photo #${removing?.photoId ?? ''}`}
        isPending={decide.isPending}
        onReject={(reason) => removing && remove(removing, reason)}
      />
    </section>
  );
}

function ReportedPhotoCard({ reported, busy, onDismiss, onRemove }: { reported: ReportedPhoto; busy: boolean; onDismiss: () => void; onRemove: () => void }) {
  const { photo } = reported;
  const label = photo ? photoLabel(photo) : `Photo #${reported.photoId}`;
  const headingId = `reported-photo-${reported.photoId}`;
  return (
    <li aria-labelledby={headingId} aria-busy={busy || undefined} className={cn('flex min-w-0 flex-col overflow-hidden rounded-xl border bg-card shadow-sm', busy && 'opacity-70')}>
      {photo ? (
        <ContainedPhoto photo={photo} alt={photoImageAlt(photo)} />
      ) : (
        <div className="flex aspect-[4/3] items-center justify-center bg-muted text-muted-foreground">
          <ImageOff className="size-8" aria-hidden="true" />
        </div>
      )}
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex flex-col gap-1">
          <h3 id={headingId} className={photo?.description ? 'font-medium break-words' : 'font-medium text-muted-foreground italic'}>
            {photo?.description?.trim() || 'No description'}
          </h3>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            {photo && <PhotoStatusBadge status={photo.status} underReview={photo.underReview} />}
            Photo #{reported.photoId}
          </p>
        </div>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span className="flex items-center gap-1.5">
            <Users className="size-4" aria-hidden="true" />
            {formatCountOf(reported.reporters, 'member')} reported it
          </span>
          {reported.lastReportedAt && <span>Last report {formatDateTime(reported.lastReportedAt)}</span>}
        </p>
        <ReportGroups groups={reported.groups} />
        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          <Button size="sm" variant="outline" disabled={busy} onClick={onDismiss} aria-label={`Dismiss the reports of ${label}`}>
            <Check aria-hidden="true" />
            {photo?.underReview ? 'Dismiss and restore' : 'Dismiss'}
          </Button>
          <Button size="sm" variant="destructive" disabled={busy || photo?.status === 'rejected'} onClick={onRemove} aria-label={`Remove ${label}`}>
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        </div>
      </div>
    </li>
  );
}
