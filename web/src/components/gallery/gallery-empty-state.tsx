import { Link } from 'react-router-dom';
import { Camera } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import type { GalleryFilterId } from '@/lib/types';

/** The product's name, as the rest of the app spells it (brand.ts holds only the brand images). */
const PRODUCT_NAME = 'Snap Cracks';

/** SPEC §2: the two empty states, each with a Snap a Crack button. */
export function GalleryEmptyState({ filter }: { filter: GalleryFilterId }) {
  const isAllSnaps = filter === 'all-snaps';
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Camera className="size-7" aria-hidden="true" />
        </div>
        <h3 className="text-xl font-semibold text-card-foreground">{isAllSnaps ? 'No Photos Yet' : 'Oh snap! No cracks found!'}</h3>
        <p className="max-w-md text-muted-foreground">
          {isAllSnaps
            ? `Be the first to share a ${PRODUCT_NAME} with the community!`
            : 'Try selecting a different filter to see more photos.'}
        </p>
        <Button asChild className="mt-2">
          <Link to="/upload">
            <Camera aria-hidden="true" />
            Snap a Crack
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
