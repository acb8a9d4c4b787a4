/**
 * A tiny toast store: any module can raise a toast, the <Toaster /> renders them with Radix Toast.
 * SPEC §9: at most one toast at a time (a new one replaces the current one), 5000 ms by default.
 */
import { WEB } from '@snapcracks/http-contract';
import type { ReactNode } from 'react';

export const TOAST_LIMIT = WEB.toastLimit;
export const TOAST_DURATION_MS = WEB.toastDurationMs;
/** How long a dismissed toast stays mounted so its exit animation can play. */
const TOAST_REMOVE_DELAY_MS = 300;

export type ToastVariant = 'default' | 'destructive';

/** A button inside the toast (Undo, say); clicking it runs `onClick` and closes the toast. */
export interface ToastActionOptions {
  label: string;
  /** What a screen reader user is told to do instead, since the toast may be gone before they reach it. */
  altText: string;
  onClick: () => void;
}

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; defaults to TOAST_DURATION_MS. */
  duration?: number;
  action?: ToastActionOptions;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

type Listener = () => void;

let toasts: readonly ToastItem[] = [];
let nextId = 0;
const listeners = new Set<Listener>();

function setToasts(next: readonly ToastItem[]): void {
  toasts = next;
  listeners.forEach((listener) => listener());
}

export function subscribeToToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly ToastItem[] {
  return toasts;
}

/** Shows a toast; the newest toast pushes older ones out beyond TOAST_LIMIT. */
export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  nextId += 1;
  const id = String(nextId);
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Closes one toast (or all), then unmounts it once its exit animation has had time to run. */
export function dismissToast(id?: string): void {
  const isTarget = (item: ToastItem) => id === undefined || item.id === id;
  setToasts(toasts.map((item) => (isTarget(item) ? { ...item, open: false } : item)));
  setTimeout(() => {
    setToasts(toasts.filter((item) => item.open || !isTarget(item)));
  }, TOAST_REMOVE_DELAY_MS);
}

/** Drops every toast at once (used between tests). */
export function clearToasts(): void {
  setToasts([]);
}
