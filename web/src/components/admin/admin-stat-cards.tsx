import { Flag } from 'lucide-react';
import { FilterTile, FilterTileGroup } from '@/components/filter-tile';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format';
import type { AdminPhotoList, AdminStats } from '@/lib/types';
import { ADMIN_FILTERS } from './admin-filters';

/**
 * The admin's four counters (pending, approved today, rejected today, all), each one filtering the review list, and
 * the reported photos' tile beside them, which shows the reports instead.
 */
export function AdminStatCards({
  selected,
  stats,
  onSelect,
  reports,
}: {
  /** Null while the reported photos are shown. */
  selected: AdminPhotoList | null;
  /** Undefined while the first answer loads. */
  stats: AdminStats | undefined;
  onSelect: (list: AdminPhotoList) => void;
  reports: { count: number | undefined; selected: boolean; onSelect: () => void };
}) {
  return (
    <FilterTileGroup label="Photo filters" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
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
      <FilterTile
        layout="counter"
        icon={Flag}
        label="Reported Photos"
        selected={reports.selected}
        onSelect={reports.onSelect}
        count={reports.count === undefined ? undefined : formatCount(reports.count)}
        countPlaceholder={<Skeleton className="mt-1 h-7 w-10" aria-hidden="true" />}
        countTestId="stat-reports"
      />
    </FilterTileGroup>
  );
}
