import { Calendar, CalendarDays, Clock, Images, Trophy, Vote, type LucideIcon } from 'lucide-react';
import type { GalleryFilterId } from '@/lib/types';
import { cn } from '@/lib/utils';

export const DEFAULT_GALLERY_FILTER: GalleryFilterId = 'top-rated';

export interface GalleryFilterOption {
  id: GalleryFilterId;
  label: string;
  description: string;
  icon: LucideIcon;
  /** Only signed-in users have votes to compare against. */
  requiresSignIn?: boolean;
}

export const GALLERY_FILTERS: GalleryFilterOption[] = [
  { id: 'top-rated', label: 'Top Rated', description: 'Highest rated photos', icon: Trophy },
  {
    id: 'need-your-vote',
    label: 'Need your Vote',
    description: "Photos you haven't rated yet",
    icon: Vote,
    requiresSignIn: true,
  },
  { id: 'new-today', label: 'New Today', description: 'Shared in the last day', icon: Clock },
  { id: 'new-this-week', label: 'New This Week', description: 'Shared in the last 7 days', icon: CalendarDays },
  { id: 'new-this-month', label: 'New This Month', description: 'Shared in the last 30 days', icon: Calendar },
  { id: 'all-snaps', label: 'All Snaps', description: 'All approved photos', icon: Images },
];

export function getGalleryFilter(id: GalleryFilterId): GalleryFilterOption {
  return GALLERY_FILTERS.find((filter) => filter.id === id) ?? GALLERY_FILTERS[0]!;
}

export function GalleryFilterTiles({
  selected,
  onSelect,
  isSignedIn,
}: {
  selected: GalleryFilterId;
  onSelect: (filter: GalleryFilterId) => void;
  isSignedIn: boolean;
}) {
  const filters = GALLERY_FILTERS.filter((filter) => isSignedIn || !filter.requiresSignIn);
  return (
    // Phones: one row that scrolls sideways (six tiles in a grid took ~700 px before the first photo); from `sm` a grid.
    <div
      role="group"
      aria-label="Gallery filters"
      className="-mx-4 flex snap-x gap-3 overflow-x-auto px-4 pb-1 [scrollbar-width:thin] sm:mx-0 sm:grid sm:grid-cols-3 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-6"
    >
      {filters.map(({ id, label, description, icon: Icon }) => {
        const isSelected = id === selected;
        return (
          <button
            key={id}
            type="button"
            aria-pressed={isSelected}
            onClick={(event) => {
              event.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' });
              onSelect(id);
            }}
            className={cn(
              'flex w-36 shrink-0 snap-start flex-col items-center gap-1 rounded-xl border p-3 text-center sm:w-auto sm:gap-1.5 sm:p-4 outline-none transition-all hover:border-primary/60 hover:shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
              isSelected ? 'border-primary bg-primary/10 text-foreground shadow-sm' : 'bg-card text-card-foreground',
            )}
          >
            <Icon className={cn('size-5 sm:size-6', isSelected ? 'text-primary' : 'text-muted-foreground')} aria-hidden="true" />
            <span className="text-sm font-semibold">{label}</span>
            <span className="text-xs text-muted-foreground">{description}</span>
          </button>
        );
      })}
    </div>
  );
}
