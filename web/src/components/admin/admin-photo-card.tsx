import { useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { Ban, CalendarDays, Check, CheckCircle2, EyeOff, Pencil, Trash2, User as UserIcon, X } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EditPhotoDialog } from '@/components/dashboard/edit-photo-dialog';
import { photoImageAlt, photoLabel } from '@/components/dashboard/photo-label';
import { PhotoStatusBadge } from '@/components/dashboard/photo-status-badge';
import { RatingSummary } from '@/components/photo/rating-summary';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { getServerMessage } from '@/lib/api';
import { formatCountOf, formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { getUploaderName } from '@/lib/user';
import { cn } from '@/lib/utils';
import type { AdminPhoto } from '@/lib/types';
import { useAdminDeletePhotoMutation } from '@/queries/admin';
import { useReverseDecisionMutation } from '@/queries/desk';
import { AuditTrail } from './audit-trail';
import { ContainedPhoto } from './contained-photo';
import { isPlainKey, isTextEntry } from './keyboard';
import { RejectPhotoDialog } from './reject-photo-dialog';
import { discardDecision } from './review-decisions';
import { ResubmissionDetails } from './resubmission-details';
import { ReviewMarks } from './review-marks';

/** A decision taken back: an approved photo removed, or a rejected one approved after all. */
type Reversal = 'remove' | 'approve';

const REVERSAL_TOASTS: Record<Reversal, string> = {
  remove: 'The photo has been removed from the gallery.',
  approve: 'The photo has been approved again.',
};

export interface AdminPhotoCardProps {
  photo: AdminPhoto;
  currentUserId: string | undefined;
  /** The card's element, for the list to move focus to it after a decision. */
  cardRef?: Ref<HTMLLIElement>;
  onApprove: (photo: AdminPhoto) => void;
  /** Asks for a rejection reason; `opener` gets focus back when the admin cancels. */
  onRequestReject: (photo: AdminPhoto, opener: HTMLElement | null) => void;
  /** Opens the review view on this photo. */
  onView: (photo: AdminPhoto) => void;
  /** Offers to take back its decision (Remove, Approve again): not while a decision about it waits for its Undo. */
  reversible?: boolean;
  /** A checkbox to choose the photo for bulk approval (the pending list). */
  selection?: { checked: boolean; onCheckedChange: (checked: boolean) => void };
}

/**
 * One photo of the admin's review list: the whole picture, its uploader, status, rating, bars, rejection reason,
 * repeat-upload marks and moderation history, with approve and reject (pending photos only; also A and R while the
 * card has focus), edit and delete (any status), and the decision taken back with a reason (Remove on an approved
 * photo, Approve again on a rejected one). Space or Enter on the card, or a click on the picture, opens the review view.
 */
export function AdminPhotoCard({ photo, currentUserId, cardRef, onApprove, onRequestReject, onView, reversible = false, selection }: AdminPhotoCardProps) {
  const [deleting, setDeleting] = useState(false);
  const [reversing, setReversing] = useState<Reversal | null>(null);
  const reversalOpener = useRef<HTMLButtonElement | null>(null);
  const remove = useAdminDeletePhotoMutation({ title: 'Error', description: 'Failed to delete photo. Please try again.' });
  const reverse = useReverseDecisionMutation((error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to change the decision. Please try again.') }));
  const label = photoLabel(photo);
  const uploader = getUploaderName(photo.user, photo.userId);
  const uploadedOn = formatDate(photo.createdAt);
  const isPending = photo.status === 'pending';
  const busy = remove.isPending || reverse.isPending;
  const canRemove = reversible && photo.status === 'approved';
  const canApproveAgain = reversible && photo.status === 'rejected';
  const headingId = `admin-photo-${photo.id}-title`;
  const bars = Array.isArray(photo.privacyBars) ? photo.privacyBars.length : 0;

  const approve = () => {
    if (isPending && !busy) onApprove(photo);
  };
  const requestReject = (opener: HTMLElement | null) => {
    if (isPending && !busy) onRequestReject(photo, opener);
  };
  const confirmDelete = () => {
    // A decision still offering Undo would reach a deleted photo: the deletion wins.
    discardDecision(photo.id);
    remove.mutate(photo.id, {
      onSuccess: () => toast({ title: 'Success', description: 'The photo has been deleted.' }),
      onSettled: () => setDeleting(false),
    });
  };

  const openReversal = (reversal: Reversal, opener: HTMLButtonElement) => {
    reversalOpener.current = opener;
    setReversing(reversal);
  };
  const confirmReversal = (reason: string) => {
    if (!reversing) return;
    const decision = reversing;
    reverse.mutate(
      { id: photo.id, decision, reason },
      {
        onSuccess: () => {
          setReversing(null);
          toast({ title: 'Success', description: REVERSAL_TOASTS[decision] });
        },
      },
    );
  };

  // Space or Enter on the card opens the review view; A approves and R asks for a rejection reason, for the card
  // that has focus (or a button inside it).
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (busy || event.defaultPrevented || !isPlainKey(event)) return;
    // Events from the dialogs bubble here through React's tree: only the card's own elements count.
    if (!event.currentTarget.contains(event.target as Node) || isTextEntry(event.target)) return;
    const key = event.key.toLowerCase();
    if ((key === 'enter' || key === ' ') && event.target === event.currentTarget) {
      event.preventDefault();
      if (!event.repeat) onView(photo);
      return;
    }
    if (!isPending || event.repeat) return;
    if (key === 'a') {
      event.preventDefault();
      approve();
    } else if (key === 'r') {
      event.preventDefault();
      requestReject(document.activeElement instanceof HTMLElement ? document.activeElement : null);
    }
  };

  return (
    <li
      ref={cardRef}
      aria-labelledby={headingId}
      aria-busy={busy || undefined}
      aria-keyshortcuts={isPending ? 'Enter Space A R' : 'Enter Space'}
      data-photo-id={photo.id}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={cn(
        'flex min-w-0 flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm outline-none transition-shadow focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        busy && 'opacity-70',
      )}
    >
      {/* Nothing lies over the photo (not even the status badge): the moderator sees every pixel of it. */}
      <button type="button" tabIndex={-1} className="block w-full cursor-zoom-in outline-none" aria-label={`View ${label} large`} onClick={() => onView(photo)}>
        <ContainedPhoto photo={photo} alt={photoImageAlt(photo)} />
      </button>

      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start gap-2">
          {selection && (
            // 44 px to tap on a phone around the 20 px box.
            <label className="-my-2 -ml-3 flex size-11 shrink-0 cursor-pointer items-center justify-center sm:-my-1.5 sm:-ml-2 sm:size-9">
              <Checkbox
                aria-label={`Select photo ${label}`}
                checked={selection.checked}
                disabled={busy}
                onCheckedChange={(checked) => selection.onCheckedChange(checked === true)}
              />
            </label>
          )}
          <div className="flex min-w-0 flex-col gap-1">
            <h3 id={headingId} className={photo.description ? 'font-medium break-words' : 'font-medium text-muted-foreground italic'}>
              {photo.description?.trim() || 'No description'}
            </h3>
            <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <PhotoStatusBadge status={photo.status} underReview={photo.underReview} />
              Photo #{photo.id}
            </p>
          </div>
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
                <time dateTime={photo.createdAt ?? undefined}>{uploadedOn}</time>
              </dd>
            </div>
          )}
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Rating</dt>
            <dd>
              <RatingSummary averageRating={photo.averageRating} voteCount={photo.voteCount} />
            </dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Privacy bars</dt>
            <dd className="flex items-center gap-1.5">
              <EyeOff className="size-4" aria-hidden="true" />
              {formatCountOf(bars, 'privacy bar')}
            </dd>
          </div>
        </dl>

        {photo.status === 'rejected' && (
          <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400/40 dark:bg-red-400/10 dark:text-red-200">
            <p className="font-semibold">Rejection reason</p>
            <p className="mt-1 break-words">{photo.rejectionReason?.trim() || 'No reason was given.'}</p>
          </div>
        )}

        <ResubmissionDetails photo={photo} />
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
                <Check aria-hidden="true" />
                Approve
              </Button>
              <Button
                size="sm"
                variant="destructive"
                aria-label={`Reject ${label}`}
                aria-keyshortcuts="R"
                title="Reject (R)"
                disabled={busy}
                onClick={(event) => requestReject(event.currentTarget)}
              >
                <X aria-hidden="true" />
                Reject
              </Button>
            </>
          )}
          {canRemove && (
            <Button variant="outline" size="sm" aria-label={`Remove ${label}`} disabled={busy} onClick={(event) => openReversal('remove', event.currentTarget)}>
              <Ban aria-hidden="true" />
              Remove
            </Button>
          )}
          {canApproveAgain && (
            <Button variant="outline" size="sm" aria-label={`Approve again ${label}`} disabled={busy} onClick={(event) => openReversal('approve', event.currentTarget)}>
              <CheckCircle2 aria-hidden="true" />
              Approve again
            </Button>
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

      <RejectPhotoDialog
        mode={reversing === 'approve' ? 'reinstate' : 'takeDown'}
        open={reversing !== null}
        onOpenChange={(open) => !open && setReversing(null)}
        photoLabel={label}
        isPending={reverse.isPending}
        onReject={confirmReversal}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          // Back to the button that asked (the card leaves its list only once the lists have been refetched).
          const opener = reversalOpener.current;
          if (opener?.isConnected) opener.focus();
        }}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this photo?"
        description={`“${label}” will be permanently deleted with its files and ratings. This cannot be undone.`}
        confirmLabel="Delete Photo"
        pendingLabel="Deleting..."
        destructive
        isPending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </li>
  );
}
