import { FilterTile, FilterTileGroup } from '@/components/filter-tile';
import { formatCount } from '@/lib/format';
import type { ContactFormCounts, ContactFormFilter } from '@/lib/types';
import { SUPPORT_FILTERS } from './support-statuses';

/** The four counters of SPEC §2 User Support; each one is also the filter it counts. */
export function SupportFilterCards({
  selected,
  counts,
  onSelect,
}: {
  selected: ContactFormFilter;
  /** Undefined while the first answer loads. */
  counts: ContactFormCounts | undefined;
  onSelect: (filter: ContactFormFilter) => void;
}) {
  return (
    <FilterTileGroup label="Message filters" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {SUPPORT_FILTERS.map(({ id, label, icon, count }) => (
        <FilterTile
          key={id}
          layout="counter"
          icon={icon}
          label={label}
          selected={id === selected}
          onSelect={() => onSelect(id)}
          count={counts ? formatCount(count(counts)) : undefined}
          countPlaceholder={<span className="text-2xl font-bold tabular-nums">–</span>}
          countTestId={`count-${id}`}
        />
      ))}
    </FilterTileGroup>
  );
}
