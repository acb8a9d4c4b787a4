import type { ContactFormCounts, ContactFormFilter } from '@/lib/types';
import { formatCount } from '@/lib/format';
import { cn } from '@/lib/utils';
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
    <div role="group" aria-label="Message filters" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {SUPPORT_FILTERS.map(({ id, label, icon: Icon, count }) => {
        const isSelected = id === selected;
        const value = counts ? count(counts) : undefined;
        return (
          <button
            key={id}
            type="button"
            aria-pressed={isSelected}
            onClick={() => onSelect(id)}
            className={cn(
              'flex items-center gap-3 rounded-xl border p-4 text-left outline-none transition-all hover:border-primary/60 hover:shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
              isSelected ? 'border-primary bg-primary/10 text-foreground shadow-sm' : 'bg-card text-card-foreground',
            )}
          >
            <span
              className={cn(
                'flex size-10 shrink-0 items-center justify-center rounded-full',
                isSelected ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
              )}
            >
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <span className="flex min-w-0 flex-col">
              <span className="text-sm font-medium text-muted-foreground">{label}</span>
              <span className="text-2xl font-bold tabular-nums" data-testid={`count-${id}`}>
                {value === undefined ? '–' : formatCount(value)}
              </span>
            </span>
          </button>
        );
      })}
    </div>
  );
}
