import type { CSSProperties, SyntheticEvent } from 'react';
import { Expand, LogIn } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { UserAvatar } from '@/components/user-avatar';
import { useLoginHref } from '@/hooks/use-login-href';
import type { GalleryPhoto } from '@/lib/types';
import { photoAlt, photoUploaderName } from './photo-labels';
import { cardImage, GALLERY_GRID } from './image-sources';
import { RatingSummary } from './rating-summary';
import { RetryingImage } from './retrying-image';

const preventDefault = (event: SyntheticEvent) => event.preventDefault();

/** The card's image box on phones: the photo's aspect ratio, kept between 3:4 and 16:9 (4:3 when unknown). */
export function cardAspect({ width, height }: Pick<GalleryPhoto, 'width' | 'height'>): string {
  if (!(width > 0 && height > 0)) return '4 / 3';
  const ratio = Math.min(16 / 9, Math.max(3 / 4, width / height));
  return String(Math.round(ratio * 1000) / 1000);
}

export interface PhotoCardProps {
  photo: GalleryPhoto;
  isSignedIn: boolean;
  onView: (photo: GalleryPhoto) => void;
  /** The card on screen as the page opens and likely its largest paint: its image is fetched at once and first. */
  leading?: boolean;
}

/** A gallery card: the thumbnail, description, uploader, average and vote count, View and (signed out) Sign In to Rate. */
export function PhotoCard({ photo, isSignedIn, onView, leading = false }: PhotoCardProps) {
  const uploader = photoUploaderName(photo);
  const signInHref = useLoginHref();
  const hasSize = photo.width > 0 && photo.height > 0;
  const titleId = `photo-${photo.id}-title`;
  const description = photo.description?.trim();

  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full min-w-0 flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md"
    >
      {/* The whole frame, contained on a neutral ground: a portrait is never cropped to a 4:3 box. A click or tap on
          it opens the viewer, as View does for the keyboard (so it is not a second tab stop). */}
      <div
        // One column (phones): the photo's own shape, within 3:4 and 16:9; in a grid every card is 4:3, so rows align.
        style={{ '--photo-aspect': cardAspect(photo) } as CSSProperties}
        className="relative aspect-(--photo-aspect) cursor-zoom-in overflow-hidden bg-muted sm:aspect-[4/3]"
        onContextMenu={preventDefault}
        onClick={() => onView(photo)}
      >
        <RetryingImage
          // Thumbnail, medium or display image, whichever is sharp enough at the card's size (image-sources.ts).
          {...cardImage(photo, GALLERY_GRID)}
          alt={photoAlt(photo)}
          width={hasSize ? photo.width : undefined}
          height={hasSize ? photo.height : undefined}
          // Lazy, at normal priority, so they never compete with a hero's image; the browser still fetches those
          // near the screen as soon as the grid is laid out. The leading card (the first of a page the grid leads,
          // on screen on a phone, where it is the largest paint) is fetched at once, ahead of the others.
          loading={leading ? 'eager' : 'lazy'}
          fetchPriority={leading ? 'high' : undefined}
          decoding="async"
          draggable={false}
          onDragStart={preventDefault}
          className="size-full object-contain select-none"
          placeholderClassName="size-full"
        />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <h3
          id={titleId}
          className={description ? 'line-clamp-2 font-medium break-words' : 'font-medium text-muted-foreground italic'}
        >
          {description || 'No description'}
        </h3>
        <div className="flex items-center justify-between gap-3 text-sm text-muted-foreground">
          <span className="flex min-w-0 items-center gap-2">
            <UserAvatar
              user={{
                id: photo.user?.id ?? photo.userId,
                displayName: photo.user?.displayName ?? null,
                firstName: photo.user?.firstName ?? null,
                lastName: photo.user?.lastName ?? null,
                email: null,
                customProfileImage: photo.user?.customProfileImage ?? null,
                profileImageUrl: photo.user?.profileImageUrl ?? null,
              }}
              className="size-6 text-xs"
            />
            <span className="truncate" title={`Photo by ${uploader}`}>{`Photo by ${uploader}`}</span>
          </span>
          <RatingSummary averageRating={photo.averageRating} voteCount={photo.voteCount} className="shrink-0" />
        </div>
        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          <Button
            variant="outline"
            size="sm"
            onClick={() => onView(photo)}
            aria-label={`View photo by ${uploader}`}
            aria-haspopup="dialog"
            data-photo-view={photo.id}
          >
            <Expand aria-hidden="true" />
            View
          </Button>
          {!isSignedIn && (
            <Button asChild size="sm">
              <a href={signInHref}>
                <LogIn aria-hidden="true" />
                Sign In to Rate
              </a>
            </Button>
          )}
        </div>
      </div>
    </article>
  );
}
