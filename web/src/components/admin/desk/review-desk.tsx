import { DESK } from '@snapcracks/http-contract';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, ArrowLeft, Check, Inbox, Keyboard, RotateCw, SkipForward, TimerOff, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { useReasonTemplatesQuery } from '@/queries/desk';
import { isPlainKey, isTextEntry } from '../keyboard';
import { DESK_SHORTCUTS, Key } from './desk-keys';
import { DeskItemView } from './desk-item-view';
import { DeskReasonPanel } from './desk-reason-panel';
import { DeskUndoBar } from './desk-undo-bar';
import { useReviewDesk } from './use-review-desk';

/** Keys pressed in a dialog (the shortcuts' help) belong to it. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]') !== null;
}

const APPROVE_CLASSES = 'bg-emerald-700 text-white hover:bg-emerald-800 dark:bg-emerald-700 dark:hover:bg-emerald-800';

/**
 * The review desk: one photo at a time, claimed so no other admin decides it meanwhile, decided with the keyboard or
 * the buttons (each shows its key). A approves, R asks for the reason (saved reasons on 1–9), S skips, U or Control+Z
 * takes back the last decision within DESK.undoSeconds, ? lists the keys. After each step the next photo comes by
 * itself, its heading takes focus and a live region says what happened.
 */
export function ReviewDesk() {
  const { user } = useAuth();
  const desk = useReviewDesk();
  const { state } = desk;
  const templates = useReasonTemplatesQuery().data?.templates ?? [];
  /** The photo the reason panel is open for; it closes by itself when another photo is shown. */
  const [rejectingId, setRejectingId] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const rejectButton = useRef<HTMLButtonElement>(null);
  const focusedTicket = useRef(0);

  const itemId = state.item?.photo.id ?? null;
  const rejecting = state.phase === 'ready' && rejectingId !== null && rejectingId === itemId;

  // After each step, once the next state shows: its heading (the new photo's, or the empty desk's) takes focus.
  useEffect(() => {
    if (desk.focusTicket === focusedTicket.current || state.phase === 'loading') return;
    focusedTicket.current = desk.focusTicket;
    headingRef.current?.focus();
  }, [desk.focusTicket, state.phase]);

  const reject = (reason: string) => {
    setRejectingId(null);
    desk.reject(reason);
  };
  const cancelReject = () => {
    setRejectingId(null);
    // Back to the button that stands for R, once it is there again.
    requestAnimationFrame(() => rejectButton.current?.focus());
  };

  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || helpOpen || isTextEntry(event.target) || inDialog(event.target)) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && key === 'z') {
      if (!event.repeat && desk.undo()) event.preventDefault();
      return;
    }
    if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      setHelpOpen(true);
      return;
    }
    // The reason panel has its own keys (1–9, Enter, Escape).
    if (!isPlainKey(event) || event.repeat || rejecting) return;
    if (key === 'u') {
      if (desk.undo()) event.preventDefault();
      return;
    }
    if (state.phase !== 'ready' || itemId === null) return;
    if (key === 'a') {
      event.preventDefault();
      desk.approve();
    } else if (key === 'r') {
      event.preventDefault();
      setRejectingId(itemId);
    } else if (key === 's') {
      event.preventDefault();
      desk.skip();
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const actions =
    state.phase !== 'ready' ? null : rejecting ? (
      <DeskReasonPanel templates={templates} onConfirm={reject} onCancel={cancelReject} />
    ) : (
      <div role="group" aria-label="Decide" className="flex flex-wrap gap-2">
        <Button className={APPROVE_CLASSES} aria-keyshortcuts="A" onClick={desk.approve}>
          <Check aria-hidden="true" />
          Approve
          <Key inverse aria-hidden="true">
            A
          </Key>
        </Button>
        <Button ref={rejectButton} variant="destructive" aria-keyshortcuts="R" onClick={() => setRejectingId(itemId)}>
          <X aria-hidden="true" />
          Reject
          <Key inverse aria-hidden="true">
            R
          </Key>
        </Button>
        <Button variant="outline" aria-keyshortcuts="S" onClick={desk.skip}>
          <SkipForward aria-hidden="true" />
          Skip
          <Key aria-hidden="true">S</Key>
        </Button>
        <Button variant="ghost" aria-keyshortcuts="?" aria-haspopup="dialog" onClick={() => setHelpOpen(true)}>
          <Keyboard aria-hidden="true" />
          Shortcuts
          <Key aria-hidden="true">?</Key>
        </Button>
      </div>
    );

  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="sr-only" data-testid="desk-announcement">
        {desk.announcement}
      </p>

      {state.phase === 'loading' ? (
        <div role="status" aria-label="Loading the next photo" className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex flex-col gap-4">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="aspect-[4/3] w-full rounded-xl" />
            <div className="flex flex-wrap gap-2">
              <Skeleton className="h-10 w-28" />
              <Skeleton className="h-10 w-24" />
              <Skeleton className="h-10 w-20" />
            </div>
          </div>
          <Skeleton className="h-56 w-full rounded-xl" />
        </div>
      ) : state.phase === 'error' ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
            <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
            <h2 ref={headingRef} tabIndex={-1} className="font-medium outline-none">
              The next photo could not be loaded.
            </h2>
            <Button variant="outline" onClick={desk.retry}>
              <RotateCw aria-hidden="true" />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : state.phase === 'empty' || !state.item ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
            <Inbox className="size-12 text-muted-foreground" aria-hidden="true" />
            <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold outline-none">
              Nothing waiting for review
            </h2>
            <p className="max-w-md text-muted-foreground">
              Every photo has been reviewed, or the rest are on other admins’ desks. New uploads, resubmissions and reported photos come here
              as they arrive.
            </p>
            <div className="mt-2 flex flex-wrap justify-center gap-2">
              <Button onClick={desk.retry}>
                <RotateCw aria-hidden="true" />
                Check again
              </Button>
              <Button asChild variant="outline">
                <Link to="/admin">
                  <ArrowLeft aria-hidden="true" />
                  Back to the Admin Panel
                </Link>
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : (
        <>
          {state.phase === 'lost' && (
            <Card className="border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100">
              <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-center sm:justify-between">
                <div className="flex items-start gap-3">
                  <TimerOff className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
                  <div>
                    <h2 ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
                      This photo is no longer yours
                    </h2>
                    <p className="text-sm">{DESK.claimLost}</p>
                  </div>
                </div>
                <Button onClick={desk.retry} className="shrink-0">
                  <SkipForward aria-hidden="true" />
                  Take the next one
                </Button>
              </CardContent>
            </Card>
          )}
          <DeskItemView
            item={state.item}
            waiting={state.waiting}
            headingRef={state.phase === 'lost' ? undefined : headingRef}
            currentUserId={user?.id}
            actions={actions}
            dimmed={state.phase === 'lost'}
          />
        </>
      )}

      {desk.undoable && <DeskUndoBar decision={desk.undoable.decision} until={desk.undoable.until} onUndo={desk.undo} />}

      <Dialog open={helpOpen} onOpenChange={setHelpOpen}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>Keyboard shortcuts</DialogTitle>
            <DialogDescription>Keys typed into a text field are the field’s own.</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2 text-sm">
            {DESK_SHORTCUTS.map(({ keys, action }) => (
              <div key={action} className="contents">
                <dt className="flex flex-wrap gap-1">
                  {keys.map((key, index) => (
                    <span key={key} className="flex items-center gap-1">
                      {index > 0 && <span className="text-muted-foreground">or</span>}
                      <Key>{key}</Key>
                    </span>
                  ))}
                </dt>
                <dd>{action}</dd>
              </div>
            ))}
          </dl>
        </DialogContent>
      </Dialog>
    </div>
  );
}
