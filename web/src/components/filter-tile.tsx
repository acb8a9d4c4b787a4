import type { MouseEvent, ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A row of filter tiles, named for screen readers ("Gallery filters"); one tile is the current filter. */
export function FilterTileGroup({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className={className}>
      {children}
    </div>
  );
}

export interface FilterTileProps {
  icon: LucideIcon;
  label: string;
  selected: boolean;
  onSelect: (event: MouseEvent<HTMLButtonElement>) => void;
  /**
   * stacked: icon, label and `description` centred one above the other (the gallery's filters);
   * counter: the icon beside the label and a big `count` (the admin's and support's counters).
   */
  layout: 'stacked' | 'counter';
  description?: ReactNode;
  /** The figure of a counter; undefined while it loads. */
  count?: ReactNode;
  /** Shown where the figure goes while it loads. */
  countPlaceholder?: ReactNode;
  countTestId?: string;
  className?: string;
}

/**
 * One filter as a toggle button (`aria-pressed` says which is current), the same in the gallery, the admin panel and
 * the support inbox. Pressing the current one again keeps it.
 */
export function FilterTile({
  icon: Icon,
  label,
  selected,
  onSelect,
  layout,
  description,
  count,
  countPlaceholder,
  countTestId,
  className,
}: FilterTileProps) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onSelect}
      className={cn(
        'flex rounded-xl border outline-none transition-all hover:border-primary/60 hover:shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        selected ? 'border-primary bg-primary/10 text-foreground shadow-sm' : 'bg-card text-card-foreground',
        layout === 'stacked' ? 'flex-col items-center gap-1 p-3 text-center sm:gap-1.5 sm:p-4' : 'items-center gap-3 p-4 text-left',
        className,
      )}
    >
      {layout === 'stacked' ? (
        <>
          <Icon className={cn('size-5 sm:size-6', selected ? 'text-primary' : 'text-muted-foreground')} aria-hidden="true" />
          <span className="text-sm font-semibold">{label}</span>
          <span className="text-xs text-muted-foreground">{description}</span>
        </>
      ) : (
        <>
          <span
            className={cn(
              'flex size-10 shrink-0 items-center justify-center rounded-full',
              selected ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
            )}
          >
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <span className="flex min-w-0 flex-col">
            <span className="text-sm font-medium text-muted-foreground">{label}</span>
            {count === undefined ? (
              countPlaceholder
            ) : (
              <span className="text-2xl font-bold tabular-nums" data-testid={countTestId}>
                {count}
              </span>
            )}
          </span>
        </>
      )}
    </button>
  );
}
