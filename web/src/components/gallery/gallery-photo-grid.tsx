import { Star } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { photoFileUrl } from '@/lib/api';
import type { GalleryPhoto } from '@/lib/types';
import { getUploaderName } from '@/lib/user';

/** A plain grid of approved photos; the full photo cards (viewer, voting) build on this. */
export function GalleryPhotoGrid({ photos }: { photos: GalleryPhoto[] }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {photos.map((photo) => {
        const uploader = getUploaderName(photo.user, photo.userId);
        return (
          <li key={photo.id}>
            <Card className="overflow-hidden">
              <img
                src={photoFileUrl(photo.filename)}
                alt={photo.description || `Photo by ${uploader}`}
                loading="lazy"
                className="aspect-[4/3] w-full bg-muted object-cover"
              />
              <div className="space-y-1 p-4">
                <p className="line-clamp-2 text-sm">{photo.description || 'No description'}</p>
                <div className="flex items-center justify-between text-xs text-muted-foreground">
                  <span>{`Photo by ${uploader}`}</span>
                  {typeof photo.averageRating === 'number' && (
                    <span className="flex items-center gap-1">
                      <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
                      {photo.averageRating.toFixed(1)}
                      <span className="sr-only">out of 5 from</span> ({photo.voteCount ?? 0})
                    </span>
                  )}
                </div>
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
