import { Camera, Star, Users, Vote, type LucideIcon } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format';
import type { GalleryStats } from '@/lib/types';
import { useGalleryStatsQuery } from '@/queries/gallery';

const ITEMS: { key: keyof GalleryStats; label: string; icon: LucideIcon }[] = [
  { key: 'photoCount', label: 'Photos', icon: Camera },
  { key: 'totalVotes', label: 'Total Votes', icon: Vote },
  { key: 'ratedFourOrHigher', label: 'Rated 4+ Stars', icon: Star },
  { key: 'distinctUploaders', label: 'Snappers', icon: Users },
];

/** The community's numbers (GET /api/stats/gallery); left out when they cannot be loaded. */
export function GalleryStatsStrip() {
  const { data, isLoading, isError } = useGalleryStatsQuery();
  if (isError || (!isLoading && !data)) return null;
  return (
    <section aria-label="Community stats" className="mt-12">
      <dl className="grid grid-cols-2 gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:gap-4 sm:p-6 md:grid-cols-4">
        {ITEMS.map(({ key, label, icon: Icon }) => (
          <div key={key} className="flex flex-col items-center gap-1 text-center">
            <Icon className="size-5 text-primary" aria-hidden="true" />
            {/* The label comes first for screen readers; the number is shown above it. */}
            <dt className="order-3 text-sm text-muted-foreground">{label}</dt>
            <dd className="order-2 text-2xl font-bold tabular-nums">
              {data ? formatCount(data[key]) : <Skeleton className="mx-auto h-8 w-14" />}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
