import { useRef, useState } from 'react';
import { LogIn, Star } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useAuth } from '@/hooks/use-auth';
import { LOGIN_URL } from '@/lib/browser';
import type { GalleryPhoto, VoteResult } from '@/lib/types';
import { formatAverage, formatVoteCount, photoAlt, photoUploaderName } from './format';
import { PhotoVoteControl } from './photo-vote-control';
import { ProtectedImage } from './protected-image';

export interface PhotoDialogProps {
  photo: GalleryPhoto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The photo viewer: "Photo by {user}", the protected display image, the description, the average with
 * its vote count, and the rating control for signed-in users. Loaded on first use (React.lazy), so the
 * landing page does not download it until a photo is opened.
 */
export function PhotoDialog({ photo, open, onOpenChange }: PhotoDialogProps) {
  const contentRef = useRef<HTMLDivElement>(null);
  // Opened without a DialogTrigger, so Radix would not know where to return focus on close.
  const openerRef = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        ref={contentRef}
        className="max-w-3xl gap-5 p-4 sm:p-6"
        // Focus the dialog itself, not the first star: Enter right after opening must not cast a vote.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          contentRef.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (openerRef.current?.isConnected) openerRef.current.focus();
        }}
      >
        <PhotoDialogBody key={photo.id} photo={photo} />
      </DialogContent>
    </Dialog>
  );
}

function PhotoDialogBody({ photo }: { photo: GalleryPhoto }) {
  const { user } = useAuth();
  // The totals a vote answered: the gallery may drop the photo from its list (Need your Vote).
  const [voted, setVoted] = useState<VoteResult | null>(null);
  const averageRating = voted?.averageRating ?? photo.averageRating;
  const voteCount = voted?.voteCount ?? photo.voteCount;
  const description = photo.description?.trim();

  return (
    <>
      <DialogHeader className="pr-8">
        <DialogTitle className="break-words">{`Photo by ${photoUploaderName(photo)}`}</DialogTitle>
      </DialogHeader>
      <ProtectedImage src={photo.displayUrl} alt={photoAlt(photo)} width={photo.width} height={photo.height} />
      <DialogDescription className={description ? 'text-base break-words text-foreground' : 'italic'}>
        {description || 'No description'}
      </DialogDescription>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <Star className="size-5 fill-amber-400 text-amber-500 dark:text-amber-400" aria-hidden="true" />
          <span className="text-lg font-semibold text-foreground">{formatAverage(averageRating)}</span>
          <span className="sr-only">average rating,</span>
          <span>({formatVoteCount(voteCount)})</span>
        </p>
        {user ? (
          <PhotoVoteControl
            photoId={photo.id}
            averageRating={averageRating}
            isSignedIn
            isOwnPhoto={user.id === photo.userId}
            onVoted={setVoted}
          />
        ) : (
          <Button asChild variant="outline">
            <a href={LOGIN_URL}>
              <LogIn aria-hidden="true" />
              Sign In to Rate
            </a>
          </Button>
        )}
      </div>
    </>
  );
}
