import { ADMIN_GRID, cardImage, type CardGrid } from '@/components/photo/image-sources';
import { RetryingImage } from '@/components/photo/retrying-image';
import { cn } from '@/lib/utils';
import type { UserPhoto } from '@/lib/types';

/** The review card's frame: every photo fits inside it whole. */
const FRAME = { width: 4, height: 3 };

/** A neutral grey around the photo in both themes, so the frame's edge never looks like part of the picture. */
export const NEUTRAL_BACKDROP = 'bg-neutral-200 dark:bg-neutral-800';

/**
 * The whole photo, centred in a 4:3 frame on a neutral backdrop, never cropped. Its box is computed from the
 * photo's own width and height before a byte arrives (as wide as the frame for a landscape photo, as tall for a
 * portrait one), so nothing moves when it loads. `grid` says how wide it shows (the review list's cards by default);
 * `eager` loads it at once (the one photo of the review desk).
 */
export function ContainedPhoto({
  photo,
  alt,
  className,
  grid = ADMIN_GRID,
  eager = false,
}: {
  photo: UserPhoto;
  alt: string;
  className?: string;
  grid?: CardGrid;
  eager?: boolean;
}) {
  const hasSize = photo.width > 0 && photo.height > 0;
  const widthPercent = hasSize ? Math.min(100, ((photo.width * FRAME.height) / (photo.height * FRAME.width)) * 100) : 100;
  return (
    <span
      className={cn('flex w-full items-center justify-center overflow-hidden', NEUTRAL_BACKDROP, className)}
      style={{ aspectRatio: `${FRAME.width} / ${FRAME.height}` }}
    >
      <RetryingImage
        // Thumbnail, medium or display image, whichever is sharp enough at the card's size (image-sources.ts).
        {...cardImage(photo, grid)}
        alt={alt}
        width={hasSize ? photo.width : undefined}
        height={hasSize ? photo.height : undefined}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        style={hasSize ? { width: `${widthPercent}%`, aspectRatio: `${photo.width} / ${photo.height}` } : undefined}
        className={hasSize ? 'h-auto max-h-full max-w-full object-contain' : 'size-full object-contain'}
        placeholderClassName="size-full"
      />
    </span>
  );
}
