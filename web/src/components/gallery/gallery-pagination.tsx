import { GALLERY } from '@snapcracks/http-contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** SPEC §9: pagination shows at most 5 page buttons. */
export const MAX_PAGE_BUTTONS = GALLERY.pageButtons;

/** The page numbers to offer: a window of at most `max` pages around `current`, inside 1..`total`. */
export function pageWindow(current: number, total: number, max = MAX_PAGE_BUTTONS): number[] {
  if (total <= 0) return [];
  const count = Math.min(max, total);
  const page = Math.min(Math.max(1, current), total);
  const start = Math.min(Math.max(1, page - Math.floor(count / 2)), total - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}

export interface GalleryPaginationProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** The navigation's name for screen readers. */
  label?: string;
  className?: string;
}

/** Previous, up to five page numbers and Next, and "Page N of M"; nothing when everything fits on one page. */
export function GalleryPagination({ page, totalPages, onPageChange, label = 'Gallery pages', className }: GalleryPaginationProps) {
  if (totalPages <= 1) return null;
  const pages = pageWindow(page, totalPages);
  return (
    <nav aria-label={label} className={cn('flex flex-col items-center gap-3', className)}>
      <ul className="flex flex-wrap items-center justify-center gap-1.5">
        <li>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onPageChange(page - 1)}
            disabled={page <= 1}
            aria-label="Previous page"
            className="min-w-11"
          >
            <ChevronLeft aria-hidden="true" />
            <span className="hidden sm:inline">Previous</span>
          </Button>
        </li>
        {pages.map((number) => {
          const isCurrent = number === page;
          return (
            <li key={number}>
              <Button
                variant={isCurrent ? 'default' : 'outline'}
                size="sm"
                className="min-w-11 sm:min-w-9"
                aria-label={`Page ${number}`}
                aria-current={isCurrent ? 'page' : undefined}
                onClick={() => {
                  if (!isCurrent) onPageChange(number);
                }}
              >
                {number}
              </Button>
            </li>
          );
        })}
        <li>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onPageChange(page + 1)}
            disabled={page >= totalPages}
            aria-label="Next page"
            className="min-w-11"
          >
            <span className="hidden sm:inline">Next</span>
            <ChevronRight aria-hidden="true" />
          </Button>
        </li>
      </ul>
      <p className="text-sm text-muted-foreground tabular-nums">
        Page {page} of {totalPages}
      </p>
    </nav>
  );
}
