import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToToasts, toast } from '@/lib/toast';

/** The toasts currently shown, kept in sync with the toast store. */
export function useToasts() {
  return useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
}

export function useToast() {
  return { toast, dismiss: dismissToast };
}
