import type { KeyboardEvent, Ref } from 'react';
import { Check, ChevronLeft, ChevronRight, ExternalLink, X } from 'lucide-react';
import { photoImageAlt, photoLabel } from '@/components/dashboard/photo-label';
import { PhotoStatusBadge } from '@/components/dashboard/photo-status-badge';
import { RetryingImage } from '@/components/photo/retrying-image';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { getUploaderName } from '@/lib/user';
import type { AdminPhoto } from '@/lib/types';
import { NEUTRAL_BACKDROP } from './contained-photo';
import { isPlainKey, isTextEntry } from './keyboard';

export interface AdminReviewViewProps {
  /** The photos of the list on screen, in its order; ← and → move through them. */
  photos: AdminPhoto[];
  /** The photo shown; null when closed. */
  photo: AdminPhoto | null;
  contentRef?: Ref<HTMLDivElement>;
  onNavigate: (photo: AdminPhoto) => void;
  onClose: () => void;
  onApprove: (photo: AdminPhoto) => void;
  onRequestReject: (photo: AdminPhoto, opener: HTMLElement | null) => void;
}

function Key({ children }: { children: string }) {
  return <kbd className="rounded border bg-muted px-1.5 font-mono text-xs text-foreground">{children}</kbd>;
}

/**
 * Why a pending photo is back, in one line above it: what a decision here should weigh (the card keeps the whole story:
 * resubmission-details.tsx, the reported photos' list).
 */
function ReviewContext({ photo }: { photo: AdminPhoto }) {
  if (photo.status !== 'pending') return null;
  const { resubmission } = photo;
  if (resubmission) {
    const note = resubmission.note ? ` · The uploader says: “${resubmission.note}”` : '';
    return (
      <p className="line-clamp-2 text-sm text-violet-800 wrap-anywhere dark:text-violet-200">
        Resubmitted · Rejected because: “{resubmission.previousRejectionReason || 'no reason given'}”{note}
      </p>
    );
  }
  if (photo.underReview) return <p className="text-sm text-amber-800 dark:text-amber-200">Members reported this approved photo; it is out of the gallery until you decide.</p>;
  return null;
}

/**
 * The review view: one photo as large as the window allows, whole (the display image, contained), with the same
 * A (approve) and R (reject with a reason) keys as the cards, ← and → for the previous and next photo of the list,
 * and Escape to close. The list decides where focus goes when it closes.
 */
export function AdminReviewView({ photos, photo, contentRef, onNavigate, onClose, onApprove, onRequestReject }: AdminReviewViewProps) {
  const index = photo ? photos.findIndex((p) => p.id === photo.id) : -1;
  const previous = index > 0 ? photos[index - 1] : undefined;
  const next = index >= 0 ? photos[index + 1] : undefined;
  const isPending = photo?.status === 'pending';

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!photo || event.defaultPrevented || !isPlainKey(event)) return;
    // Only keys pressed in the view itself: not those bubbling from a dialog rendered inside it.
    if (!event.currentTarget.contains(event.target as Node) || isTextEntry(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'arrowleft' && previous) {
      event.preventDefault();
      onNavigate(previous);
    } else if (key === 'arrowright' && next) {
      event.preventDefault();
      onNavigate(next);
    } else if (isPending && !event.repeat && key === 'a') {
      event.preventDefault();
      onApprove(photo);
    } else if (isPending && !event.repeat && key === 'r') {
      event.preventDefault();
      onRequestReject(photo, document.activeElement instanceof HTMLElement ? document.activeElement : null);
    }
  };

  return (
    <Dialog
      open={photo !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent
        ref={contentRef}
        aria-keyshortcuts={isPending ? 'ArrowLeft ArrowRight A R' : 'ArrowLeft ArrowRight'}
        className="flex h-[calc(100dvh-1rem)] max-h-none w-[calc(100vw-1rem)] max-w-none flex-col gap-3 overflow-hidden p-3 sm:h-[calc(100dvh-2rem)] sm:w-[calc(100vw-2rem)] sm:p-4"
        // Focus the view itself, so that the keys work at once and Enter presses no button.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
        // The list puts focus back on the card of the photo last shown (or where a decision left it).
        onCloseAutoFocus={(event) => event.preventDefault()}
        onKeyDown={onKeyDown}
      >
        {photo && (
          <>
            <div className="flex min-w-0 flex-col gap-1 pr-10">
              <div className="flex min-w-0 items-start gap-2">
                <PhotoStatusBadge status={photo.status} underReview={photo.underReview} className="mt-0.5 shrink-0" />
                <DialogTitle className="line-clamp-2 leading-normal wrap-anywhere">{photoLabel(photo)}</DialogTitle>
              </div>
              <DialogDescription className="truncate">
                Photo #{photo.id} by {getUploaderName(photo.user, photo.userId)}
                {index >= 0 && ` · ${index + 1} of ${photos.length}`}
              </DialogDescription>
              <ReviewContext photo={photo} />
            </div>

            <div className={`relative min-h-0 flex-1 overflow-hidden rounded-md ${NEUTRAL_BACKDROP}`}>
              <RetryingImage
                key={photo.id}
                src={photo.displayUrl}
                alt={photoImageAlt(photo)}
                width={photo.width > 0 ? photo.width : undefined}
                height={photo.height > 0 ? photo.height : undefined}
                decoding="async"
                className="absolute inset-0 size-full object-contain"
                placeholderClassName="absolute inset-0 size-full"
                data-testid="review-view-image"
              />
            </div>

            <div className="flex items-center justify-between gap-2">
              {/* Phones: arrows only, so the moves and the decisions share one row. */}
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  className="min-w-11"
                  aria-label="Previous photo"
                  aria-keyshortcuts="ArrowLeft"
                  disabled={!previous}
                  onClick={() => previous && onNavigate(previous)}
                >
                  <ChevronLeft aria-hidden="true" />
                  <span className="hidden sm:inline">Previous</span>
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="min-w-11"
                  aria-label="Next photo"
                  aria-keyshortcuts="ArrowRight"
                  disabled={!next}
                  onClick={() => next && onNavigate(next)}
                >
                  <span className="hidden sm:inline">Next</span>
                  <ChevronRight aria-hidden="true" />
                </Button>
              </div>
              <p className="hidden items-center gap-1.5 text-xs text-muted-foreground lg:flex">
                <Key>←</Key>
                <Key>→</Key> move{isPending && <>, <Key>A</Key> approves, <Key>R</Key> rejects</>}, <Key>Esc</Key> closes
              </p>
              <div className="flex gap-2">
                <Button asChild variant="ghost" size="sm" className="hidden sm:inline-flex">
                  <a href={photo.displayUrl} target="_blank" rel="noreferrer">
                    <ExternalLink aria-hidden="true" />
                    Open in a new tab
                  </a>
                </Button>
                {isPending && (
                  <>
                    <Button
                      size="sm"
                      className="bg-emerald-700 text-white hover:bg-emerald-800 dark:bg-emerald-700 dark:hover:bg-emerald-800"
                      aria-keyshortcuts="A"
                      title="Approve (A)"
                      onClick={() => onApprove(photo)}
                    >
                      <Check aria-hidden="true" />
                      Approve
                    </Button>
                    <Button size="sm" variant="destructive" aria-keyshortcuts="R" title="Reject (R)" onClick={(event) => onRequestReject(photo, event.currentTarget)}>
                      <X aria-hidden="true" />
                      Reject
                    </Button>
                  </>
                )}
              </div>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
