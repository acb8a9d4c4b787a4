import { useSyncExternalStore } from 'react';
import { getToasts, subscribeToToasts } from '@/lib/toast';

/** The toasts currently shown, kept in sync with the toast store. */
export function useToasts() {
  return useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
}
