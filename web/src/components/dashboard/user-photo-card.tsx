import { CalendarDays, Pencil } from 'lucide-react';
import { cardImage, DASHBOARD_GRID } from '@/components/photo/image-sources';
import { RatingSummary } from '@/components/photo/rating-summary';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import type { UserPhoto } from '@/lib/types';
import { DeletePhotoButton } from './delete-photo-button';
import { EditPhotoDialog } from './edit-photo-dialog';
import { PhotoStatusBadge } from './photo-status-badge';
import { ResubmitPhotoButton } from './resubmit-photo-dialog';
import { photoImageAlt, photoLabel } from './photo-label';

/** The thumbnail, medium or display image, whichever is sharp enough at the card's size (image-sources.ts). */
function cardImageAttributes(photo: UserPhoto) {
  const { src, sources, sizes } = cardImage(photo, DASHBOARD_GRID);
  return { src, srcSet: sources.map((source) => `${source.url} ${source.width}w`).join(', '), sizes };
}

/** One entry of My Uploads: thumbnail, status, description, rating, date and the owner's actions. */
export function UserPhotoCard({ photo }: { photo: UserPhoto }) {
  const label = photoLabel(photo);
  const uploadedOn = formatDate(photo.createdAt);
  const hasSize = photo.width > 0 && photo.height > 0;
  const headingId = `my-photo-${photo.id}-title`;

  return (
    <li aria-labelledby={headingId} className="flex flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm">
      <div className="relative aspect-[4/3] w-full overflow-hidden bg-muted">
        <img
          {...cardImageAttributes(photo)}
          alt={photoImageAlt(photo)}
          width={hasSize ? photo.width : undefined}
          height={hasSize ? photo.height : undefined}
          loading="lazy"
          decoding="async"
          // The whole photo, contained on a neutral ground, never cropped to the 4:3 box.
          className="size-full object-contain"
        />
        <PhotoStatusBadge status={photo.status} underReview={photo.underReview} className="absolute top-3 left-3 shadow-sm" />
      </div>

      <div className="flex flex-1 flex-col gap-3 p-4">
        <h3 id={headingId} className={photo.description ? 'font-medium break-words' : 'font-medium text-muted-foreground italic'}>
          {photo.description?.trim() || 'No description'}
        </h3>

        <dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {photo.status === 'approved' && (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">Rating</dt>
              <dd>
                <RatingSummary averageRating={photo.averageRating} voteCount={photo.voteCount} />
              </dd>
            </div>
          )}
          {uploadedOn && (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">Uploaded</dt>
              <dd className="flex items-center gap-1.5">
                <CalendarDays className="size-4" aria-hidden="true" />
                <time dateTime={photo.createdAt ?? undefined}>{uploadedOn}</time>
              </dd>
            </div>
          )}
        </dl>

        {photo.status === 'pending' && photo.underReview && (
          <div className="rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-950 dark:border-orange-400/40 dark:bg-orange-400/10 dark:text-orange-100">
            <p className="font-semibold">Under review</p>
            <p className="mt-1">Members reported this photo. It is hidden from the gallery until an admin reviews it.</p>
          </div>
        )}

        {photo.status === 'pending' && photo.resubmission && !photo.underReview && (
          <p className="rounded-md border bg-muted/50 p-3 text-sm text-muted-foreground">
            Resubmitted {formatDate(photo.resubmission.resubmittedAt)}: an admin will review it again.
          </p>
        )}

        {photo.status === 'rejected' && (
          <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400/40 dark:bg-red-400/10 dark:text-red-200">
            <p className="font-semibold">Rejection reason</p>
            <p className="mt-1 break-words">{photo.rejectionReason?.trim() || 'No reason was given.'}</p>
            {photo.resubmitUntil ? (
              <p className="mt-2">You can fix this photo and resubmit it once, until {formatDate(photo.resubmitUntil)}.</p>
            ) : (
              photo.finalRejection && <p className="mt-2">This photo was resubmitted once; this decision is final.</p>
            )}
          </div>
        )}

        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          <EditPhotoDialog photo={photo}>
            <Button variant="outline" size="sm" aria-label={`Edit ${label}`}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </EditPhotoDialog>
          {photo.resubmitUntil && <ResubmitPhotoButton photo={photo} />}
          <DeletePhotoButton photo={photo} />
        </div>
      </div>
    </li>
  );
}
