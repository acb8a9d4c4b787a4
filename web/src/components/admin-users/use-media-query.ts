import { useCallback, useSyncExternalStore } from 'react';

/** Whether `query` matches now, following changes (a rotated phone, a resized window). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `md` breakpoint: a table from here up, cards below (390 px phones). */
export const WIDE_LAYOUT_QUERY = '(min-width: 768px)';
