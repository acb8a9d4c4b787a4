import { Calendar, CalendarDays, Clock, Images, Trophy, Vote, type LucideIcon } from 'lucide-react';
import { FilterTile, FilterTileGroup } from '@/components/filter-tile';
import type { GalleryFilterId } from '@/lib/types';

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
    <FilterTileGroup
      label="Gallery filters"
      className="-mx-4 flex snap-x gap-3 overflow-x-auto px-4 pb-1 [scrollbar-width:thin] sm:mx-0 sm:grid sm:grid-cols-3 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-6"
    >
      {filters.map(({ id, label, description, icon }) => (
        <FilterTile
          key={id}
          layout="stacked"
          icon={icon}
          label={label}
          description={description}
          selected={id === selected}
          onSelect={(event) => {
            event.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' });
            onSelect(id);
          }}
          className="w-36 shrink-0 snap-start sm:w-auto"
        />
      ))}
    </FilterTileGroup>
  );
}
