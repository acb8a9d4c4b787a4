import { createContext, useContext } from 'react';

/** The member's live connection to the server (the notification stream), as the rest of the app sees it. */
export interface LiveConnection {
  /** True while the stream is open (EventSource readyState OPEN): the server then says when data changes. */
  open: boolean;
}

/** Down until a provider says otherwise: a screen rendered without one polls as it always did. */
export const LiveConnectionContext = createContext<LiveConnection>({ open: false });

export function useLiveConnection(): LiveConnection {
  return useContext(LiveConnectionContext);
}

/**
 * A query's polling interval as a fallback: `intervalMs` while the live connection is down, none while it is open (the
 * stream's events invalidate the query instead).
 */
export function usePollingFallback(intervalMs: number): number | false {
  return useLiveConnection().open ? false : intervalMs;
}
