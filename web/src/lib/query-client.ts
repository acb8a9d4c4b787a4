import { QueryClient } from '@tanstack/react-query';

/**
 * Data defaults of SPEC §9: data never goes stale, no refetch on window focus, no polling and no retries.
 * Screens that need fresher data (admin polling) opt in per query.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
