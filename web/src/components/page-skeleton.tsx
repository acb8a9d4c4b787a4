import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder while a page's data loads: a title and three content blocks (SPEC §9: 3 or 4 placeholders). */
export function PageSkeleton({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <span className="sr-only">{label}…</span>
      <Skeleton className="h-9 w-64" />
      <Skeleton className="mt-3 h-5 w-96 max-w-full" />
      <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-48 w-full rounded-xl" />
        ))}
      </div>
    </div>
  );
}
