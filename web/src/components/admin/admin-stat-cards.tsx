import type { AdminPhotoList, AdminStats } from '@/lib/types';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format';
import { cn } from '@/lib/utils';
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
    <div role="group" aria-label="Photo filters" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {ADMIN_FILTERS.map(({ id, label, icon: Icon, count }) => {
        const isSelected = id === selected;
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
              {stats ? (
                <span className="text-2xl font-bold tabular-nums" data-testid={`stat-${id}`}>
                  {formatCount(count(stats))}
                </span>
              ) : (
                <Skeleton className="mt-1 h-7 w-10" aria-hidden="true" />
              )}
            </span>
          </button>
        );
      })}
    </div>
  );
}
