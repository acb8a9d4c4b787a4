import { FilterTile, FilterTileGroup } from '@/components/filter-tile';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format';
import type { AdminPhotoList, AdminStats } from '@/lib/types';
import { ADMIN_FILTERS } from './admin-filters';

/** The admin's four counters (pending, approved today, rejected today, all); each one filters the review list. */
export function AdminStatCards({
  selected,
  stats,
  onSelect,
}: {
  selected: AdminPhotoList;
  /** Undefined while the first answer loads. */
  stats: AdminStats | undefined;
  onSelect: (list: AdminPhotoList) => void;
}) {
  return (
    <FilterTileGroup label="Photo filters" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {ADMIN_FILTERS.map(({ id, label, icon, count }) => (
        <FilterTile
          key={id}
          layout="counter"
          icon={icon}
          label={label}
          selected={id === selected}
          onSelect={() => onSelect(id)}
          count={stats ? formatCount(count(stats)) : undefined}
          countPlaceholder={<Skeleton className="mt-1 h-7 w-10" aria-hidden="true" />}
          countTestId={`stat-${id}`}
        />
      ))}
    </FilterTileGroup>
  );
}
