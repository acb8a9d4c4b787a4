import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ChevronLeft, ChevronRight, LogIn, PartyPopper } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useAuth } from '@/hooks/use-auth';
import { useLoginHref } from '@/hooks/use-login-href';
import type { GalleryPhoto, VoteResult } from '@/lib/types';
import { photoAlt, photoUploaderName } from './photo-labels';
import { viewerImageUrl } from './image-sources';
import { PhotoVoteControl } from './photo-vote-control';
import { ProtectedImage } from './protected-image';
import { RatingSummary } from './rating-summary';
import { ReportPhotoButton } from './report-photo-dialog';

/** A horizontal swipe shorter than this (CSS px) is a tap or a wobble, not a request for the next photo. */
export const SWIPE_MIN_DISTANCE = 50;

export interface PhotoDialogProps {
  photo: GalleryPhoto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the photo is in the list the viewer walks through ("Photo 3 of 9"). */
  position?: { index: number; count: number };
  /** Absent at the start (or end) of the list. */
  onPrevious?: () => void;
  onNext?: () => void;
  /** Neighbours whose display images are fetched ahead, so moving on shows them at once. */
  preload?: GalleryPhoto[];
  /** Called once a vote on `photoId` is recorded. */
  onVoted?: (photoId: number, result: VoteResult) => void;
  /** Shown instead of a photo when a walk through Need your Vote has nothing left to rate. */
  caughtUp?: boolean;
  /** Where focus goes when the viewer closes (the shown photo's card); else where it was when it opened. */
  returnFocusTo?: () => HTMLElement | null;
}

/** Keys typed into these, or moving through the stars, belong to them. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target.closest('[role="radiogroup"]') !== null && (key.startsWith('Arrow') || /^[1-5]$/.test(key));
}

/**
 * The photo viewer: "Photo by {user}", the protected display image, the description, the average with its vote
 * count, and the rating control for signed-in users. ← and → (or a swipe on the photo, or the buttons beside it)
 * move through the list it was opened from, the digits 1–5 vote from anywhere in it. Loaded on first use
 * (React.lazy), so the landing page does not download it until a photo is opened.
 */
export function PhotoDialog({
  photo,
  open,
  onOpenChange,
  position,
  onPrevious,
  onNext,
  preload = [],
  onVoted,
  caughtUp = false,
  returnFocusTo,
}: PhotoDialogProps) {
  const contentRef = useRef<HTMLDivElement>(null);
  // Opened without a DialogTrigger, so Radix would not know where to return focus on close.
  const openerRef = useRef<HTMLElement | null>(null);
  const voteRef = useRef<((rating: number) => void) | null>(null);
  usePreloadedImages(open ? preload : []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || ownsKey(event.target, event.key)) return;
    if (event.key === 'ArrowLeft' && onPrevious) {
      event.preventDefault();
      onPrevious();
    } else if (event.key === 'ArrowRight' && onNext) {
      event.preventDefault();
      onNext();
    } else if (/^[1-5]$/.test(event.key) && voteRef.current) {
      event.preventDefault();
      voteRef.current(Number(event.key));
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        ref={contentRef}
        className="max-w-3xl gap-4 p-4 sm:gap-5 sm:p-6"
        onKeyDown={onKeyDown}
        // Focus the dialog itself, not the first star: Enter right after opening must not cast a vote.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          contentRef.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const target = returnFocusTo?.() ?? openerRef.current;
          if (target?.isConnected) target.focus();
        }}
      >
        {caughtUp ? (
          <CaughtUp onClose={() => onOpenChange(false)} />
        ) : (
          <PhotoDialogBody
            key={photo.id}
            photo={photo}
            position={position}
            onPrevious={onPrevious}
            onNext={onNext}
            onVoted={onVoted}
            voteRef={voteRef}
            // Moving on re-renders the body: keep focus in the dialog, where the keys work.
            onNavigated={() => contentRef.current?.focus()}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function PhotoDialogBody({
  photo,
  position,
  onPrevious,
  onNext,
  onVoted,
  voteRef,
  onNavigated,
}: {
  photo: GalleryPhoto;
  position?: PhotoDialogProps['position'];
  onPrevious?: () => void;
  onNext?: () => void;
  onVoted?: PhotoDialogProps['onVoted'];
  voteRef: React.RefObject<((rating: number) => void) | null>;
  onNavigated: () => void;
}) {
  const { user } = useAuth();
  const signInHref = useLoginHref();
  // The totals a vote answered: the gallery may drop the photo from its list (Need your Vote).
  const [voted, setVoted] = useState<VoteResult | null>(null);
  const averageRating = voted?.averageRating ?? photo.averageRating;
  const voteCount = voted?.voteCount ?? photo.voteCount;
  const description = photo.description?.trim();
  const uploader = photoUploaderName(photo);
  const swipe = useSwipe({ onPrevious, onNext });

  const go = (move: (() => void) | undefined) =>
    move &&
    (() => {
      move();
      onNavigated();
    });

  return (
    <>
      <DialogHeader className="min-w-0 pr-10 text-left sm:pr-8">
        {/* One line (the whole name is its accessible name and tooltip): the frame below starts at the same height for
            every photo. */}
        <DialogTitle className="truncate leading-normal" title={`Photo by ${uploader}`}>{`Photo by ${uploader}`}</DialogTitle>
        {position && position.count > 1 && (
          <p className="text-sm text-muted-foreground tabular-nums">
            Photo {position.index + 1} of {position.count}
          </p>
        )}
      </DialogHeader>
      <div className="relative" {...swipe}>
        <ProtectedImage
          src={viewerImage(photo)}
          alt={photoAlt(photo)}
          width={photo.width}
          height={photo.height}
          fill
          // One frame for every shape, so nothing below it moves from photo to photo.
          className="h-[42vh] sm:h-[max(16rem,min(40rem,calc(90vh-20rem)))]"
        />
        {(onPrevious || onNext) && (
          <>
            <ViewerStep direction="previous" onClick={go(onPrevious)} />
            <ViewerStep direction="next" onClick={go(onNext)} />
          </>
        )}
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <RatingSummary averageRating={averageRating} voteCount={voteCount} size="lg" className="text-sm text-muted-foreground" />
        {user ? (
          <PhotoVoteControl
            photoId={photo.id}
            averageRating={averageRating}
            isSignedIn
            isOwnPhoto={user.id === photo.userId}
            onVoted={(result) => {
              setVoted(result);
              onVoted?.(photo.id, result);
            }}
            voteRef={voteRef}
          />
        ) : (
          <Button asChild variant="outline">
            <a href={signInHref}>
              <LogIn aria-hidden="true" />
              Sign In to Rate
            </a>
          </Button>
        )}
      </div>
      {/* Below the stars, so a long description never moves them from photo to photo. */}
      <DialogDescription className={description ? 'text-base break-words text-foreground' : 'italic'}>
        {description || 'No description'}
      </DialogDescription>
      {user && user.id !== photo.userId && <ReportPhotoButton photoId={photo.id} />}
    </>
  );
}

function ViewerStep({ direction, onClick }: { direction: 'previous' | 'next'; onClick: (() => void) | undefined }) {
  const Icon = direction === 'previous' ? ChevronLeft : ChevronRight;
  return (
    <Button
      variant="outline"
      size="icon"
      aria-label={direction === 'previous' ? 'Previous photo' : 'Next photo'}
      aria-keyshortcuts={direction === 'previous' ? 'ArrowLeft' : 'ArrowRight'}
      disabled={!onClick}
      onClick={onClick}
      className={`absolute top-1/2 -translate-y-1/2 rounded-full bg-background/85 shadow-md backdrop-blur-sm ${direction === 'previous' ? 'left-2' : 'right-2'}`}
    >
      <Icon aria-hidden="true" />
    </Button>
  );
}

function CaughtUp({ onClose }: { onClose: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
        <PartyPopper className="size-7" aria-hidden="true" />
      </div>
      <DialogTitle className="text-xl">All caught up</DialogTitle>
      <DialogDescription className="max-w-sm">You have rated every photo that needs your vote. Thank you!</DialogDescription>
      <Button className="mt-2" onClick={onClose}>
        Back to the gallery
      </Button>
    </div>
  );
}

/**
 * Pointer handlers for the photo's frame: a mostly horizontal drag of at least SWIPE_MIN_DISTANCE moves to the
 * previous (rightwards) or next (leftwards) photo. `touch-action: pan-y` leaves vertical scrolling to the browser
 * and hands horizontal moves to these handlers.
 */
function useSwipe({ onPrevious, onNext }: { onPrevious?: () => void; onNext?: () => void }) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  return {
    style: { touchAction: 'pan-y' as const },
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      start.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
    },
    onPointerCancel: () => {
      start.current = null;
    },
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) < Math.abs(dy) * 1.5) return;
      if (dx < 0) onNext?.();
      else onPrevious?.();
    },
  };
}

/** The image the viewer shows on this screen (image-sources.ts: the medium one when it is sharp enough). */
function viewerImage(photo: GalleryPhoto): string {
  return viewerImageUrl(photo, { width: window.innerWidth, height: window.innerHeight, density: window.devicePixelRatio || 1 });
}

/** Starts fetching these photos' viewer images, so the viewer shows them at once when reached. */
function usePreloadedImages(photos: GalleryPhoto[]): void {
  const urls = photos.map(viewerImage).join('\n');
  useEffect(() => {
    if (!urls) return;
    // Not cancelled on change: the photo moved to is usually one of these, already on its way.
    for (const url of urls.split('\n')) {
      const image = new Image();
      image.decoding = 'async';
      image.src = url;
    }
  }, [urls]);
}
