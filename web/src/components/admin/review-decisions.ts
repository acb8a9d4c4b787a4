/**
 * Approvals and rejections with Undo, honestly on the client.
 *
 * The server changes a photo's status only while it is pending (409 otherwise) and has no undo, so a decision is
 * held here first: the review list leaves the photo out at once (the admin's keyboard flow goes on), the decision's
 * "Success" toast offers Undo, and the decision is sent only when that toast closes — after its 5 s, when a newer
 * toast replaces it (at most one toast shows, SPEC §9, so its Undo is gone), or at the latest UNDO_MAX_HOLD_MS after
 * it was made (the toast's timer pauses while it is hovered or focused). A page that is hidden or unloaded sends
 * every held decision at once with `keepalive`, so none is lost. Undo forgets the decision and the photo comes back.
 *
 * The review desk holds its decisions the same way with another Undo (`DESK_UNDO`): no toast, but its own bar, and
 * each decision is sent when its DESK.undoSeconds have passed, whatever the admin does meanwhile.
 *
 * The store lives outside React: a decision outlives the card that made it (the card leaves the list at once) and
 * the page (it is still sent, and can still be undone, after the admin moves to another page).
 */
import { useSyncExternalStore } from 'react';
import { DESK } from '@snapcracks/http-contract';
import { MutationObserver, type QueryClient } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api';
import { dismissToast, getToasts, subscribeToToasts, toast, TOAST_DURATION_MS } from '@/lib/toast';
import type { AdminPhoto, AdminStats, ReviewDecision } from '@/lib/types';
import { adminStatsQueryKey } from '@/queries/admin';
import { refreshAfterUserPhotoChange } from '@/queries/user-photos';

/** How long Undo is offered: the decision's toast's own lifetime (SPEC §9, 5000 ms). */
export const UNDO_WINDOW_MS = TOAST_DURATION_MS;
/** The longest a decision is held while its toast's timer is paused (a pointer resting on it, focus inside it). */
export const UNDO_MAX_HOLD_MS = 30_000;
/** What the toast's Undo tells screen reader users to do instead, since the toast may be gone when they get there. */
export const UNDO_ALT_TEXT = 'Press Control+Z (Command+Z on a Mac) to undo the decision';

/**
 * How a decision's Undo is offered. toast: in the decision's toast, the decision sent when the toast closes (the review
 * list); banner: by the caller, on screen for `windowMs`, the decision sent when they have passed (the review desk).
 */
export type UndoOffer = { kind: 'toast' } | { kind: 'banner'; windowMs: number };

const TOAST_UNDO: UndoOffer = { kind: 'toast' };
/** The review desk's Undo: DESK.undoSeconds for each decision. */
export const DESK_UNDO: UndoOffer = { kind: 'banner', windowMs: DESK.undoSeconds * 1000 };

export const DECISION_TOASTS: Record<ReviewDecision['status'], string> = {
  approved: 'The photo has been approved.',
  rejected: 'The photo has been rejected.',
};

/**
 * waiting: Undo is offered, nothing sent yet; sending: on its way to the server; settling: the server took it and
 * the lists are being refetched (the photo stays out of the pending list until they have answered).
 */
export type DecisionPhase = 'waiting' | 'sending' | 'settling';

export interface HeldDecision {
  photo: AdminPhoto;
  decision: ReviewDecision;
  phase: DecisionPhase;
  /** Where its Undo is offered. */
  undo: UndoOffer['kind'];
  /** When a banner's Undo ends (ms since the epoch), for its countdown; null for a toast's. */
  undoUntil: number | null;
}

interface Entry extends HeldDecision {
  queryClient: QueryClient;
  toastId: string | null;
  holdTimer: ReturnType<typeof setTimeout> | undefined;
}

let entries: ReadonlyMap<number, Entry> = new Map();
/** The photo an Undo has just brought back, for the review list to focus; with when, so a stale one is ignored. */
let restored: { photoId: number; at: number } | null = null;
const listeners = new Set<() => void>();
let unsubscribeToasts: (() => void) | null = null;
let pageListenersInstalled = false;

function notify(): void {
  listeners.forEach((listener) => listener());
}

function setEntries(change: (draft: Map<number, Entry>) => void): void {
  const draft = new Map(entries);
  change(draft);
  entries = draft;
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getEntries = (): ReadonlyMap<number, HeldDecision> => entries;

/** Every decision not yet confirmed by a refetch, by photo id, kept in sync with the store. */
export function useHeldDecisions(): ReadonlyMap<number, HeldDecision> {
  return useSyncExternalStore(subscribe, getEntries, getEntries);
}

const getRestored = () => restored;

/** The photo the latest Undo put back (consumed with `clearRestoredPhoto`). */
export function useRestoredPhoto(): { photoId: number; at: number } | null {
  return useSyncExternalStore(subscribe, getRestored, getRestored);
}

export function clearRestoredPhoto(): void {
  if (restored === null) return;
  restored = null;
  notify();
}

function isToastOpen(id: string): boolean {
  return getToasts().some((item) => item.id === id && item.open);
}

/** A held decision whose toast has closed (timer, close button, swipe, a newer toast) has lost its Undo: send it. */
function onToastsChanged(): void {
  for (const entry of [...entries.values()]) {
    if (entry.phase === 'waiting' && entry.toastId !== null && !isToastOpen(entry.toastId)) send(entry.photo.id);
  }
}

/** Sends every held decision now: the page is going away, or may never come back (a hidden tab can be discarded). */
export function flushHeldDecisions(): void {
  for (const entry of [...entries.values()]) if (entry.phase === 'waiting') send(entry.photo.id);
}

function onVisibilityChange(): void {
  if (document.visibilityState === 'hidden') flushHeldDecisions();
}

function installListeners(): void {
  unsubscribeToasts ??= subscribeToToasts(onToastsChanged);
  if (pageListenersInstalled) return;
  pageListenersInstalled = true;
  window.addEventListener('pagehide', flushHeldDecisions);
  document.addEventListener('visibilitychange', onVisibilityChange);
}

function setPhase(photoId: number, phase: DecisionPhase): void {
  setEntries((draft) => {
    const entry = draft.get(photoId);
    if (entry) draft.set(photoId, { ...entry, phase });
  });
}

function forget(photoId: number): Entry | undefined {
  const entry = entries.get(photoId);
  if (!entry) return undefined;
  clearTimeout(entry.holdTimer);
  setEntries((draft) => draft.delete(photoId));
  return entry;
}

/** Adds a decision's effect on the counters (an approval: one pending fewer, one more approved today). */
export function applyDecisionToStats(stats: AdminStats, status: ReviewDecision['status'], sign: 1 | -1 = 1): AdminStats {
  return {
    ...stats,
    pendingReviews: Math.max(0, stats.pendingReviews - sign),
    approvedToday: Math.max(0, stats.approvedToday + (status === 'approved' ? sign : 0)),
    rejectedToday: Math.max(0, stats.rejectedToday + (status === 'rejected' ? sign : 0)),
  };
}

/** The failure toast of a sent decision: the server's word when another admin has the photo at the review desk. */
function decisionErrorToast(error: Error) {
  const claimed = error instanceof ApiError && error.status === 409 && error.serverMessage('') === DESK.claimedByOther;
  return { title: 'Error', description: claimed ? DESK.claimedByOther : 'Failed to update photo status. Please try again.' };
}

/**
 * Sends a decision. The request starts at once, as the page may be going away (a mutation would start it a few
 * microtasks later, or hold it while the browser says it is offline); a mutation of the query client then carries its
 * outcome, so a failure is answered like every other call's (lib/query-client.ts): SPEC §8's toast, or after a 401
 * a sign-in.
 */
function sendReview(queryClient: QueryClient, decision: ReviewDecision): Promise<unknown> {
  const sent = api.admin.review(decision);
  return new MutationObserver(queryClient, {
    mutationFn: () => sent,
    networkMode: 'always',
    meta: { errorToast: decisionErrorToast },
  }).mutate();
}

function send(photoId: number): void {
  const entry = entries.get(photoId);
  if (!entry || entry.phase !== 'waiting') return;
  clearTimeout(entry.holdTimer);
  setPhase(photoId, 'sending');
  // Its Undo must not outlive the decision's window (held too long, or flushed as the page goes away).
  if (entry.toastId !== null && isToastOpen(entry.toastId)) dismissToast(entry.toastId);
  const { queryClient } = entry;
  sendReview(queryClient, entry.decision).then(
    async () => {
      // The counters follow through events; until the refetch answers, count the decision as made.
      queryClient.setQueryData<AdminStats>(adminStatsQueryKey, (stats) => stats && applyDecisionToStats(stats, entry.decision.status));
      setPhase(photoId, 'settling');
      await refreshAfterUserPhotoChange(queryClient).catch(() => undefined);
      forget(photoId);
    },
    async () => {
      // The photo comes back (if the server still lists it as pending: a 409 means someone else decided it).
      forget(photoId);
      await refreshAfterUserPhotoChange(queryClient).catch(() => undefined);
    },
  );
}

/**
 * Approves or rejects `photo`: held with an Undo toast, sent when the toast closes; or, with a banner `undo`, held for
 * its window and sent then. False when a decision about the photo is already held.
 */
export function decidePhoto(queryClient: QueryClient, photo: AdminPhoto, decision: ReviewDecision, undo: UndoOffer = TOAST_UNDO): boolean {
  if (entries.has(photo.id) || photo.status !== 'pending') return false;
  installListeners();
  if (undo.kind === 'banner') {
    const holdTimer = setTimeout(() => send(photo.id), undo.windowMs);
    const undoUntil = Date.now() + undo.windowMs;
    setEntries((draft) => draft.set(photo.id, { photo, decision, phase: 'waiting', undo: 'banner', undoUntil, queryClient, toastId: null, holdTimer }));
    return true;
  }
  setEntries((draft) =>
    draft.set(photo.id, { photo, decision, phase: 'waiting', undo: 'toast', undoUntil: null, queryClient, toastId: null, holdTimer: undefined }),
  );
  // Showing this toast replaces the previous one: the decision that toast offered to undo is sent (onToastsChanged).
  const shown = toast({
    title: 'Success',
    description: DECISION_TOASTS[decision.status],
    duration: UNDO_WINDOW_MS,
    action: { label: 'Undo', altText: UNDO_ALT_TEXT, onClick: () => void undoDecision(photo.id) },
  });
  const holdTimer = setTimeout(() => send(photo.id), UNDO_MAX_HOLD_MS);
  setEntries((draft) => {
    const entry = draft.get(photo.id);
    if (entry?.phase === 'waiting') draft.set(photo.id, { ...entry, toastId: shown.id, holdTimer });
    else clearTimeout(holdTimer);
  });
  return true;
}

/**
 * Takes back a decision that has not been sent: the photo returns to the list and asks for focus (a banner's: its
 * caller shows it again).
 */
export function undoDecision(photoId: number): boolean {
  const entry = entries.get(photoId);
  if (!entry || entry.phase !== 'waiting') return false;
  forget(photoId);
  if (entry.undo === 'toast') {
    restored = { photoId, at: Date.now() };
    notify();
  }
  // From the toast's button the toast closes by itself; from the keyboard shortcut it is closed here.
  if (entry.toastId !== null) dismissToast(entry.toastId);
  return true;
}

/**
 * Undoes the newest decision whose toast still offers Undo (the list's Control+Z); answers its photo's id, or null
 * when there is none. The desk's decisions are its own to undo.
 */
export function undoLatestDecision(): number | null {
  const latest = [...entries.values()].filter((entry) => entry.phase === 'waiting' && entry.undo === 'toast').at(-1);
  return latest && undoDecision(latest.photo.id) ? latest.photo.id : null;
}

/** The photos whose decision (Undo offered as `undo`) the server has not taken yet, oldest decision first. */
export function heldPhotoIds(undo: UndoOffer['kind']): number[] {
  return [...entries.values()].filter((entry) => entry.undo === undo && entry.phase !== 'settling').map((entry) => entry.photo.id);
}

/** Drops a held decision without a trace (the photo is being deleted). */
export function discardDecision(photoId: number): void {
  const entry = entries.get(photoId);
  if (!entry || entry.phase !== 'waiting') return;
  forget(photoId);
  if (entry.toastId !== null) dismissToast(entry.toastId);
}

/** The counters as the admin sees them: the server's, with the decisions not yet sent already counted. */
export function statsWithHeldDecisions(stats: AdminStats | undefined, held: ReadonlyMap<number, HeldDecision>): AdminStats | undefined {
  if (!stats) return stats;
  let adjusted = stats;
  for (const { decision, phase } of held.values()) {
    if (phase !== 'settling') adjusted = applyDecisionToStats(adjusted, decision.status);
  }
  return adjusted;
}

/** Forgets everything without sending (tests). */
export function resetReviewDecisions(): void {
  for (const entry of entries.values()) clearTimeout(entry.holdTimer);
  entries = new Map();
  restored = null;
  unsubscribeToasts?.();
  unsubscribeToasts = null;
  notify();
}
