import { useState, type KeyboardEvent } from 'react';
import { CalendarDays, Check, EyeOff, Loader2, Pencil, Star, Trash2, User as UserIcon, X } from 'lucide-react';
import { EditPhotoDialog } from '@/components/dashboard/edit-photo-dialog';
import { formatRating, formatUploadDate, formatVoteCount } from '@/components/dashboard/format';
import { photoLabel } from '@/components/dashboard/photo-label';
import { PhotoStatusBadge } from '@/components/dashboard/photo-status-badge';
import { RetryingImage } from '@/components/photo/retrying-image';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { handleUnauthorizedError } from '@/lib/unauthorized';
import { getUploaderName } from '@/lib/user';
import { cn } from '@/lib/utils';
import { useAdminDeletePhotoMutation, useReviewPhotoMutation, type AdminPhoto } from '@/queries/admin';
import { AdminDeletePhotoDialog } from './admin-delete-photo-dialog';
import { AuditTrail } from './audit-trail';
import { RejectPhotoDialog } from './reject-photo-dialog';
import { ReviewMarks } from './review-marks';

export const STATUS_UPDATE_FAILED = 'Failed to update photo status. Please try again.';
export const DELETE_FAILED = 'Failed to delete photo. Please try again.';

/** Keys typed into these belong to them, never to the card's shortcuts. */
function isTextEntry(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function failure(description: string) {
  return (error: unknown) => {
    if (handleUnauthorizedError(error)) return;
    toast({ variant: 'destructive', title: 'Error', description });
  };
}

/**
 * One photo of the admin's review list: its images, uploader, status, rating, bars, rejection reason, repeat-upload
 * marks and moderation history, with approve and reject (pending photos only; also A and R while the card has
 * focus), edit and delete (any status).
 */
export function AdminPhotoCard({ photo, currentUserId }: { photo: AdminPhoto; currentUserId: string | undefined }) {
  const [rejecting, setRejecting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const review = useReviewPhotoMutation();
  const remove = useAdminDeletePhotoMutation();
  const label = photoLabel(photo);
  const uploader = getUploaderName(photo.user, photo.userId);
  const uploadedOn = formatUploadDate(photo.createdAt);
  const isPending = photo.status === 'pending';
  const busy = review.isPending || remove.isPending;
  const headingId = `admin-photo-${photo.id}-title`;
  const hasSize = photo.width > 0 && photo.height > 0;
  const bars = Array.isArray(photo.privacyBars) ? photo.privacyBars.length : 0;

  const approve = () => {
    if (!isPending || busy) return;
    review.mutate(
      { id: photo.id, status: 'approved' },
      { onSuccess: () => toast({ title: 'Success', description: 'The photo has been approved.' }), onError: failure(STATUS_UPDATE_FAILED) },
    );
  };
  const reject = (rejectionReason: string) => {
    review.mutate(
      { id: photo.id, status: 'rejected', rejectionReason },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'The photo has been rejected.' });
          setRejecting(false);
        },
        onError: failure(STATUS_UPDATE_FAILED),
      },
    );
  };
  const confirmDelete = () => {
    remove.mutate(photo.id, {
      onSuccess: () => toast({ title: 'Success', description: 'The photo has been deleted.' }),
      onError: failure(DELETE_FAILED),
      onSettled: () => setDeleting(false),
    });
  };

  // A approves and R asks for a rejection reason, for the card that has focus (or a button inside it).
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!isPending || busy || event.defaultPrevented || event.repeat) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // Events from the dialogs bubble here through React's tree: only the card's own elements count.
    if (!event.currentTarget.contains(event.target as Node) || isTextEntry(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'a') {
      event.preventDefault();
      approve();
    } else if (key === 'r') {
      event.preventDefault();
      setRejecting(true);
    }
  };

  return (
    <li
      aria-labelledby={headingId}
      aria-busy={busy || undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={cn(
        'flex flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm outline-none transition-shadow focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        busy && 'opacity-70',
      )}
    >
      {/* The badge sits over the link, not in it: its text would not be part of the link's name (WCAG 2.5.3). */}
      <div className="relative">
        <a
          href={photo.displayUrl}
          target="_blank"
          rel="noreferrer"
          className="block aspect-[4/3] w-full overflow-hidden bg-muted"
          aria-label={`Open ${label} in a new tab`}
        >
          <RetryingImage
            src={photo.thumbnailUrl}
            alt={label}
            width={hasSize ? photo.width : undefined}
            height={hasSize ? photo.height : undefined}
            loading="lazy"
            decoding="async"
            className="size-full object-cover"
            placeholderClassName="size-full"
          />
        </a>
        <PhotoStatusBadge status={photo.status} className="pointer-events-none absolute top-3 left-3 shadow-sm" />
      </div>

      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex flex-col gap-1">
          <h3 id={headingId} className={photo.description ? 'font-medium break-words' : 'font-medium text-muted-foreground italic'}>
            {photo.description?.trim() || 'No description'}
          </h3>
          <p className="text-xs text-muted-foreground">Photo #{photo.id}</p>
        </div>

        <dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <div className="flex min-w-0 items-center gap-1.5">
            <dt className="sr-only">Uploaded by</dt>
            <dd className="flex min-w-0 items-center gap-1.5">
              <UserIcon className="size-4 shrink-0" aria-hidden="true" />
              <span className="truncate">{uploader}</span>
            </dd>
          </div>
          {uploadedOn && (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">Uploaded</dt>
              <dd className="flex items-center gap-1.5">
                <CalendarDays className="size-4" aria-hidden="true" />
                <time dateTime={photo.createdAt}>{uploadedOn}</time>
              </dd>
            </div>
          )}
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Rating</dt>
            <dd className="flex items-center gap-1.5">
              <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
              {photo.voteCount > 0 ? (
                <>
                  <span className="font-semibold text-foreground">{formatRating(photo.averageRating)}</span>
                  <span>({formatVoteCount(photo.voteCount)})</span>
                </>
              ) : (
                <span>No ratings yet</span>
              )}
            </dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Privacy bars</dt>
            <dd className="flex items-center gap-1.5">
              <EyeOff className="size-4" aria-hidden="true" />
              {bars === 1 ? '1 privacy bar' : `${bars} privacy bars`}
            </dd>
          </div>
        </dl>

        {photo.status === 'rejected' && (
          <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400/40 dark:bg-red-400/10 dark:text-red-200">
            <p className="font-semibold">Rejection reason</p>
            <p className="mt-1 break-words">{photo.rejectionReason?.trim() || 'No reason was given.'}</p>
          </div>
        )}

        {isPending && <ReviewMarks marks={photo.reviewMarks} />}
        <AuditTrail entries={photo.auditLog ?? []} currentUserId={currentUserId} />

        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          {isPending && (
            <>
              <Button
                size="sm"
                className="bg-emerald-700 text-white hover:bg-emerald-800 dark:bg-emerald-700 dark:hover:bg-emerald-800"
                aria-label={`Approve ${label}`}
                aria-keyshortcuts="A"
                title="Approve (A)"
                disabled={busy}
                onClick={approve}
              >
                {review.isPending && review.variables?.status === 'approved' ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Check aria-hidden="true" />
                )}
                Approve
              </Button>
              <Button
                size="sm"
                variant="destructive"
                aria-label={`Reject ${label}`}
                aria-keyshortcuts="R"
                title="Reject (R)"
                disabled={busy}
                onClick={() => setRejecting(true)}
              >
                <X aria-hidden="true" />
                Reject
              </Button>
            </>
          )}
          <EditPhotoDialog photo={photo}>
            <Button variant="outline" size="sm" aria-label={`Edit ${label}`} disabled={busy}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </EditPhotoDialog>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Delete ${label}`}
            className="text-destructive hover:text-destructive dark:text-red-400"
            disabled={busy}
            onClick={() => setDeleting(true)}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>

      <RejectPhotoDialog open={rejecting} onOpenChange={setRejecting} photoLabel={label} isPending={review.isPending} onReject={reject} />
      <AdminDeletePhotoDialog open={deleting} onOpenChange={setDeleting} photoLabel={label} isPending={remove.isPending} onConfirm={confirmDelete} />
    </li>
  );
}
