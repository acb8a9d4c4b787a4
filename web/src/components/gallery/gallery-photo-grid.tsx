import { lazy, Suspense } from 'react';
import { PhotoCard } from '@/components/photo/photo-card';
import type { PhotoDialogProps } from '@/components/photo/photo-dialog';
import type { GalleryPhoto } from '@/lib/types';

// The viewer (protected image, rating control, voting) is fetched the first time a photo is opened.
const PhotoDialog = lazy(() => import('@/components/photo/photo-dialog').then((m) => ({ default: m.PhotoDialog })));

/**
 * The grid of photo cards; View asks the caller to open the viewer. `leadsPage` when nothing with an image of its own
 * comes before it on screen: its first card's image is then fetched at once and first.
 */
export function GalleryPhotoGrid({
  photos,
  isSignedIn,
  onView,
  leadsPage = false,
}: {
  photos: GalleryPhoto[];
  isSignedIn: boolean;
  onView: (photo: GalleryPhoto) => void;
  leadsPage?: boolean;
}) {
  return (
    // grid-cols-1, not the implicit column: an implicit track grows to its widest card's content (a long uploader
    // name), wider than a phone.
    <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {photos.map((photo, index) => (
        <li key={photo.id} className="min-w-0">
          <PhotoCard photo={photo} isSignedIn={isSignedIn} onView={onView} leading={leadsPage && index === 0} />
        </li>
      ))}
    </ul>
  );
}

/** The photo viewer, its code loaded on first use. */
export function LazyPhotoDialog(props: PhotoDialogProps) {
  return (
    <Suspense fallback={null}>
      <PhotoDialog {...props} />
    </Suspense>
  );
}
