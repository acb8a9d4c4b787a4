import { Camera, ImageIcon, Star } from 'lucide-react';
import { SignInButton } from '@/components/auth/sign-in-button';
import { imageAltText } from '@/components/photo/photo-labels';
import { RetryingImage } from '@/components/photo/retrying-image';
import { Skeleton } from '@/components/ui/skeleton';
import { HEADER_IMAGE_URL } from '@/lib/brand';
import { LANDING_PREVIEW_COUNT, useLandingPreviewPhotos } from '@/queries/photos';

const PREVIEW_GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-4';
/** A preview's `alt` when its owner gave neither alt text nor a description. */
const PREVIEW_ALT = 'A crack photo shared by the community';

/** An empty square where a preview would be, so the hero keeps its size with fewer than four photos. */
function PreviewPlaceholder() {
  return (
    <div className="flex aspect-square items-center justify-center rounded-lg border border-dashed bg-muted/50 text-muted-foreground/40">
      <ImageIcon className="size-8" aria-hidden="true" />
    </div>
  );
}

/**
 * Up to four random community photos (thumbnails). The grid always holds four squares (skeletons while
 * loading, placeholders for missing photos, also when the list cannot be loaded), so whatever the answer
 * the hero never changes height and nothing below it shifts.
 */
function PreviewPhotos() {
  const { data: photos = [], isLoading } = useLandingPreviewPhotos();
  if (isLoading) {
    return (
      <div className={PREVIEW_GRID} role="status" aria-label="Loading photos">
        {Array.from({ length: LANDING_PREVIEW_COUNT }, (_, index) => (
          <Skeleton key={index} className="aspect-square w-full rounded-lg" />
        ))}
      </div>
    );
  }
  const missing = Math.max(0, LANDING_PREVIEW_COUNT - photos.length);
  const placeholders = Array.from({ length: missing }, (_, index) => (
    <li key={`placeholder-${index}`} aria-hidden="true">
      <PreviewPlaceholder />
    </li>
  ));
  if (photos.length === 0) {
    return (
      <ul className={PREVIEW_GRID} aria-hidden="true">
        {placeholders}
      </ul>
    );
  }
  return (
    <ul className={PREVIEW_GRID} aria-label="Community photos">
      {photos.map((photo) => (
        <li key={photo.id} className="aspect-square overflow-hidden rounded-lg border bg-muted shadow-sm">
          <RetryingImage
            src={photo.thumbnailUrl}
            alt={imageAltText(photo, PREVIEW_ALT)}
            decoding="async"
            draggable={false}
            className="size-full object-cover transition-transform duration-300 hover:scale-105"
            placeholderClassName="size-full p-2 text-xs"
          />
        </li>
      ))}
      {placeholders}
    </ul>
  );
}

export function LandingHero() {
  return (
    <section className="relative overflow-hidden">
      <div className="absolute inset-0 -z-10 bg-gradient-to-br from-orange-50 via-background to-amber-50 dark:from-orange-950/30 dark:via-background dark:to-amber-950/20" />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2 lg:px-8">
        <div className="flex flex-col gap-6">
          <p className="w-fit rounded-full border bg-background/70 px-3 py-1 text-sm font-medium text-primary">
            The community for unexpected cracks
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">Snap, Share, Vote</h1>
          <p className="max-w-xl text-lg text-muted-foreground">
            Spotted a crack in an unexpected place? Snap it, share it with the community and rate the best finds
            with five stars.
          </p>
          <div className="flex flex-wrap gap-3">
            <SignInButton size="lg">
              <Camera aria-hidden="true" />
              Start Snapping
            </SignInButton>
            <SignInButton size="lg" variant="outline">
              <Star aria-hidden="true" />
              Vote on Photos
            </SignInButton>
          </div>
        </div>
        <div className="flex flex-col gap-3">
          <img
            src={HEADER_IMAGE_URL}
            alt="Illustration of a cracked surface"
            width={1200}
            height={400}
            fetchPriority="high"
            className="aspect-[3/1] h-auto w-full rounded-xl border object-cover shadow-sm dark:brightness-75"
          />
          <PreviewPhotos />
        </div>
      </div>
    </section>
  );
}
