import { DESK } from '@snapcracks/http-contract';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { photoLabel } from '@/components/dashboard/photo-label';
import { ApiError, api } from '@/lib/api';
import { formatCountOf } from '@/lib/format';
import type { DeskItem, ReviewDecision } from '@/lib/types';
import { useDeskNextMutation, useRenewDeskClaimMutation } from '@/queries/desk';
import { decidePhoto, DESK_UNDO, heldPhotoIds, undoDecision, useHeldDecisions } from '../review-decisions';

/**
 * loading: "Review next" is on its way; ready: an item is claimed and shown; empty: nothing is waiting; error: the
 * next item could not be fetched; lost: the claim on the item shown has ended (another admin may have it now).
 */
export type DeskPhase = 'loading' | 'ready' | 'empty' | 'error' | 'lost';

export interface DeskState {
  phase: DeskPhase;
  /** The item shown: claimed while ready, no longer ours once lost. */
  item: DeskItem | null;
  /** Photos waiting that no other admin has claimed, as the last answer said. */
  waiting: number | null;
}

/** The desk's latest decision, the only one it can take back. */
export interface DeskDecision {
  item: DeskItem;
  status: ReviewDecision['status'];
}

const DECIDED_WORDS: Record<ReviewDecision['status'], string> = { approved: 'Approved', rejected: 'Rejected' };

/** "Approved “Crack by the door”", as the desk's Undo bar and its announcements say it. */
export function decisionText({ item, status }: DeskDecision): string {
  return `${DECIDED_WORDS[status]} “${photoLabel(item.photo)}”`;
}

function itemAnnouncement(item: DeskItem | null, waiting: number): string {
  if (!item) return 'Nothing waiting for review.';
  return `Now reviewing “${photoLabel(item.photo)}”, ${DESK.kindLabels[item.kind]}. ${formatCountOf(waiting, 'photo')} waiting.`;
}

/** The photo's claim goes back to the pool, even as the page unloads (keepalive); a failure only lets the claim run out. */
function release(photoId: number): void {
  void api.admin.releaseDeskClaim(photoId).catch(() => undefined);
}

/**
 * The review desk's state: one claimed item at a time from "Review next", decisions held for DESK.undoSeconds each
 * (review-decisions.ts, sent when their time is up) with the latest one undoable, skips remembered for the session,
 * the claim renewed while the item is shown and released when the admin leaves.
 */
export function useReviewDesk() {
  const queryClient = useQueryClient();
  const nextMutation = useDeskNextMutation();
  const renewMutation = useRenewDeskClaimMutation();
  const held = useHeldDecisions();
  const [state, setState] = useState<DeskState>({ phase: 'loading', item: null, waiting: null });
  const [last, setLast] = useState<DeskDecision | null>(null);
  /** What a screen reader is told after each change (the desk's live region). */
  const [announcement, setAnnouncement] = useState('');
  /** Bumped by every request and every Undo: an answer to an older request is no longer wanted. */
  const ticket = useRef(0);
  const mounted = useRef(true);
  /** The item whose claim the desk holds and must release on leaving. */
  const claimed = useRef<DeskItem | null>(null);
  /** Photos skipped this session, newest last: never offered to this desk again. */
  const skipped = useRef<number[]>([]);
  /** Set by the admin's actions: the next item's heading takes focus once it is shown. */
  const [focusTicket, setFocusTicket] = useState(0);

  /** Asks for the next item; its answer is shown unless a newer request or an Undo came since. */
  const fetchNext = (lead: string) => {
    const mine = ++ticket.current;
    claimed.current = null;
    const deciding = heldPhotoIds('banner').slice(-DESK.maxExcluded);
    nextMutation.mutateAsync({ skipped: [...skipped.current], deciding }).then(
      (answer) => {
        if (mine !== ticket.current || !mounted.current) {
          if (answer.item) release(answer.item.photo.id);
          return;
        }
        claimed.current = answer.item;
        setState({ phase: answer.item ? 'ready' : 'empty', item: answer.item, waiting: answer.waiting });
        setAnnouncement(`${lead}${itemAnnouncement(answer.item, answer.waiting)}`);
      },
      () => {
        if (mine !== ticket.current || !mounted.current) return;
        setState((current) => ({ phase: 'error', item: null, waiting: current.waiting }));
        setAnnouncement(`${lead}The next photo could not be loaded.`);
      },
    );
  };

  const requestNext = (lead = '') => {
    setState((current) => ({ phase: 'loading', item: null, waiting: current.waiting }));
    fetchNext(lead);
  };

  const renew = (photoId: number) => {
    renewMutation.mutateAsync(photoId).then(
      (claim) => {
        if (claimed.current?.photo.id !== photoId) return;
        const item = { ...claimed.current, claim };
        claimed.current = item;
        setState((current) => (current.item?.photo.id === photoId ? { ...current, item } : current));
      },
      (error: unknown) => {
        // A 409: the claim has ended (the admin was away too long). Anything else: the next renewal tries again.
        if (!(error instanceof ApiError && error.status === 409) || claimed.current?.photo.id !== photoId) return;
        claimed.current = null;
        setState((current) => (current.item?.photo.id === photoId ? { ...current, phase: 'lost' } : current));
        setAnnouncement(`This photo is no longer yours. ${DESK.claimLost}`);
      },
    );
  };

  // The desk opens loading: the first request needs no change of state before it goes.
  const onStart = useEffectEvent(() => fetchNext(''));
  const onRenewDue = useEffectEvent((photoId: number) => renew(photoId));

  // Open: the first item. Leave (or unload the page): its claim is released, so another admin can take it at once.
  useEffect(() => {
    mounted.current = true;
    onStart();
    const releaseClaim = () => {
      const item = claimed.current;
      claimed.current = null;
      if (item) release(item.photo.id);
    };
    window.addEventListener('pagehide', releaseClaim);
    return () => {
      mounted.current = false;
      ticket.current += 1;
      window.removeEventListener('pagehide', releaseClaim);
      releaseClaim();
    };
  }, []);

  // The claim lasts DESK.claimSeconds unless renewed: every DESK.renewEverySeconds while the item is shown.
  const shownId = state.phase === 'ready' ? (state.item?.photo.id ?? null) : null;
  useEffect(() => {
    if (shownId === null) return;
    const timer = setInterval(() => onRenewDue(shownId), DESK.renewEverySeconds * 1000);
    return () => clearInterval(timer);
  }, [shownId]);

  const decide = (decision: ReviewDecision) => {
    const { item, phase } = state;
    if (phase !== 'ready' || !item || item.photo.id !== decision.id) return;
    // Held for its Undo, then sent; meanwhile "Review next" leaves it out (it stays claimed by this desk).
    if (!decidePhoto(queryClient, item.photo, decision, DESK_UNDO)) return;
    const made = { item, status: decision.status };
    setLast(made);
    setFocusTicket((n) => n + 1);
    requestNext(`${decisionText(made)}; U undoes it. `);
  };

  const approve = () => state.item && decide({ id: state.item.photo.id, status: 'approved' });
  const reject = (rejectionReason: string) => state.item && decide({ id: state.item.photo.id, status: 'rejected', rejectionReason });

  const skip = () => {
    const { item, phase } = state;
    if (phase !== 'ready' || !item) return;
    skipped.current = [...skipped.current.filter((id) => id !== item.photo.id), item.photo.id].slice(-DESK.maxExcluded);
    setFocusTicket((n) => n + 1);
    requestNext('Skipped. ');
  };

  /** Takes back the latest decision while its Undo lasts: its photo is shown again, its claim renewed. */
  const undo = (): boolean => {
    if (!last || !undoDecision(last.item.photo.id)) return false;
    ticket.current += 1;
    const shown = claimed.current;
    if (shown && shown.photo.id !== last.item.photo.id) release(shown.photo.id);
    claimed.current = last.item;
    setLast(null);
    setState((current) => ({ phase: 'ready', item: last.item, waiting: Math.max(1, current.waiting ?? 1) }));
    setAnnouncement(`Undone. Back to “${photoLabel(last.item.photo)}”.`);
    setFocusTicket((n) => n + 1);
    renew(last.item.photo.id);
    return true;
  };

  const lastHeld = last ? held.get(last.item.photo.id) : undefined;
  const undoable = last !== null && lastHeld?.phase === 'waiting' ? { decision: last, until: lastHeld.undoUntil ?? 0 } : null;

  return {
    state,
    announcement,
    focusTicket,
    undoable,
    approve,
    reject,
    skip,
    undo,
    /** Fetches the next item again: after an error, an empty desk, or a claim that ended. */
    retry: () => {
      setFocusTicket((n) => n + 1);
      requestNext();
    },
  };
}
