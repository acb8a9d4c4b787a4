import { useDeferredValue, useMemo } from 'react';

/** The parts of a TanStack Query result the gallery renders from. */
export interface QuerySnapshot<TData> {
  data: TData | undefined;
  isLoading: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
}

/**
 * A query's result as a deferred value. TanStack Query delivers an answer through useSyncExternalStore,
 * which React renders synchronously: a page of nine cards was one task of 100–160 ms on a phone (Chromium
 * at 4× CPU slow-down), right in the middle of the landing page's load (Lighthouse's Total Blocking Time).
 * Deferred, the urgent render keeps the previous snapshot and the new one is rendered as a transition, in
 * slices of a few milliseconds with input handled in between. The fields change together, in one object.
 */
export function useDeferredQuery<TData>({ data, isLoading, isPlaceholderData, error }: QuerySnapshot<TData>): QuerySnapshot<TData> {
  const snapshot = useMemo(() => ({ data, isLoading, isPlaceholderData, error }), [data, isLoading, isPlaceholderData, error]);
  return useDeferredValue(snapshot);
}
