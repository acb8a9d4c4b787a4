import { DESK } from '@snapcracks/http-contract';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCheck, ChevronLeft, ChevronRight, ImageOff, Keyboard, Loader2, RotateCw } from 'lucide-react';
import { photoLabel } from '@/components/dashboard/photo-label';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { getServerMessage, isUnauthorizedError } from '@/lib/api';
import { formatCount, formatCountOf } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { AdminPhoto, AdminPhotoList, BulkApprovalResult, ReviewDecision } from '@/lib/types';
import { useAdminPhotosQuery } from '@/queries/admin';
import { useBulkApproveMutation } from '@/queries/desk';
import { adminFilter } from './admin-filters';
import { AdminPhotoCard } from './admin-photo-card';
import { AdminReviewView } from './admin-review-view';
import { isTextEntry } from './keyboard';
import { RejectPhotoDialog } from './reject-photo-dialog';
import {
  clearRestoredPhoto,
  decidePhoto,
  undoLatestDecision,
  useHeldDecisions,
  useRestoredPhoto,
  type HeldDecision,
} from './review-decisions';

/** SPEC §9: skeleton loaders show 3 or 4 placeholders. */
const SKELETON_COUNT = 3;
/** An Undo older than this no longer pulls focus (the admin has moved on, or was on another page). */
const RESTORE_FOCUS_WITHIN_MS = 2000;

/** Where focus goes once the list has re-rendered: a photo's card, an element, or the list itself. */
type FocusGoal = { photoId: number } | { element: HTMLElement } | 'list';

function withDecision(photo: AdminPhoto, decision: ReviewDecision): AdminPhoto {
  return { ...photo, status: decision.status, rejectionReason: decision.status === 'rejected' ? decision.rejectionReason : null };
}

/**
 * The page's photos as the admin should see them while decisions are held (review-decisions.ts): gone from the
 * pending list, decided in the full list, and first in today's approved or rejected list.
 */
function shownPhotos(list: AdminPhotoList, page: number, photos: AdminPhoto[], held: ReadonlyMap<number, HeldDecision>): AdminPhoto[] {
  if (held.size === 0) return photos;
  if (list === 'pending') return photos.filter((photo) => !held.has(photo.id));
  if (list === 'all') return photos.map((photo) => (held.has(photo.id) ? withDecision(photo, held.get(photo.id)!.decision) : photo));
  const status = list === 'approved-today' ? 'approved' : 'rejected';
  if (page !== 1) return photos;
  const listed = new Set(photos.map((photo) => photo.id));
  const added = [...held.values()]
    .filter(({ decision, photo }) => decision.status === status && !listed.has(photo.id))
    .reverse()
    .map(({ photo, decision }) => withDecision(photo, decision));
  return [...added, ...photos];
}

/** What a bulk approval did: how many were approved, and each photo that was not, with the server's reason. */
function showBulkResult(result: BulkApprovalResult, asked: number, labelOf: (photoId: number) => string): void {
  const approved = result.approved.length;
  if (result.failed.length === 0) {
    toast({ title: 'Success', description: `${formatCountOf(approved, 'photo')} approved.` });
    return;
  }
  toast({
    variant: approved === 0 ? 'destructive' : 'default',
    title: `${formatCount(approved)} of ${formatCountOf(asked, 'photo')} approved`,
    description: (
      <ul className="mt-1 flex flex-col gap-1">
        {result.failed.map(({ photoId, message }) => (
          <li key={photoId} className="break-words">
            {labelOf(photoId)}: {message}
          </li>
        ))}
      </ul>
    ),
  });
}

/**
 * The review list for the chosen filter, a page at a time, with the review view and the rejection dialog. After a
 * decision focus moves to the next photo's card (the previous one after the last; the list's heading when none is
 * left), so the keyboard flow goes on; Undo brings the photo back and focuses it. The pending list also approves the
 * photos chosen with their checkboxes at once.
 */
export function AdminReviewList({
  list,
  page,
  onPageChange,
  currentUserId,
}: {
  list: AdminPhotoList;
  page: number;
  onPageChange: (page: number) => void;
  currentUserId: string | undefined;
}) {
  const queryClient = useQueryClient();
  const { data, isPending, error, refetch, isRefetching } = useAdminPhotosQuery(list, page);
  const held = useHeldDecisions();
  const restored = useRestoredPhoto();
  const filter = adminFilter(list);
  const headingId = `admin-list-${list}`;
  /** Whether a decided photo leaves this list (it does from the pending one; it stays, decided, in the others). */
  const decidedLeave = list === 'pending';

  const photos = useMemo(() => shownPhotos(list, page, data?.photos ?? [], held), [list, page, data, held]);
  const total = data ? Math.max(0, data.total + photos.length - data.photos.length) : undefined;

  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const bulk = useBulkApproveMutation((error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to approve the selected photos. Please try again.') }));
  const [viewingId, setViewingId] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<{ photo: AdminPhoto; opener: HTMLElement | null } | null>(null);
  const viewed = viewingId === null ? null : (photos.find((photo) => photo.id === viewingId) ?? null);
  // The photo on view left the list from elsewhere (another admin decided it): the view closes.
  if (viewingId !== null && viewed === null && data) setViewingId(null);

  const cards = useRef(new Map<number, HTMLLIElement>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const emptyRef = useRef<HTMLParagraphElement>(null);
  const viewRef = useRef<HTMLDivElement>(null);
  const focusGoal = useRef<FocusGoal | null>(null);
  const rejectOpener = useRef<HTMLElement | null>(null);

  // A decision can empty the last page (its photo left the list): step back to the new last page.
  const lastPage = Math.max(1, data?.totalPages ?? 1);
  if (data && page > lastPage) onPageChange(lastPage);

  // Focus moves once the list shows the outcome (a decided card gone, a dialog closed); a dialog keeps it meanwhile.
  useEffect(() => {
    const goal = focusGoal.current;
    if (!goal || viewingId !== null || rejecting !== null) return;
    focusGoal.current = null;
    const element = goal === 'list' ? null : 'photoId' in goal ? cards.current.get(goal.photoId) : goal.element;
    if (element?.isConnected) element.focus();
    else (emptyRef.current ?? headingRef.current)?.focus();
  });

  // Undo from the toast: the photo is back in the list; its card takes focus (unless a dialog has it).
  useEffect(() => {
    if (!restored) return;
    clearRestoredPhoto();
    if (Date.now() - restored.at > RESTORE_FOCUS_WITHIN_MS || viewingId !== null || rejecting !== null) return;
    cards.current.get(restored.photoId)?.focus();
  }, [restored, viewingId, rejecting]);

  // Control+Z (Command+Z) undoes the newest decision still offering Undo: the toast's button may be out of reach.
  const onUndoKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.repeat || event.altKey || event.shiftKey || !(event.ctrlKey || event.metaKey)) return;
    if (event.key.toLowerCase() !== 'z' || isTextEntry(event.target) || rejecting !== null) return;
    const photoId = undoLatestDecision();
    if (photoId === null) return;
    event.preventDefault();
    if (viewingId !== null) setViewingId(photoId);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onUndoKey(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  /** Holds the decision (Undo offered) and moves on: to the next photo, else the previous one, else the list. */
  const decide = (photo: AdminPhoto, decision: ReviewDecision) => {
    const index = photos.findIndex((p) => p.id === photo.id);
    const next = photos[index + 1] ?? (decidedLeave ? photos[index - 1] : undefined);
    if (!decidePhoto(queryClient, photo, decision)) return;
    if (viewingId !== null) {
      if (next) setViewingId(next.id);
      else if (decidedLeave) {
        focusGoal.current = 'list';
        setViewingId(null);
      }
      return;
    }
    focusGoal.current = next ? { photoId: next.id } : decidedLeave ? 'list' : { photoId: photo.id };
  };

  const approve = (photo: AdminPhoto) => decide(photo, { id: photo.id, status: 'approved' });
  const requestReject = (photo: AdminPhoto, opener: HTMLElement | null) => {
    rejectOpener.current = opener;
    setRejecting({ photo, opener });
  };
  const reject = (rejectionReason: string) => {
    if (!rejecting) return;
    setRejecting(null);
    decide(rejecting.photo, { id: rejecting.photo.id, status: 'rejected', rejectionReason });
  };
  const cancelReject = () => {
    if (!rejecting) return;
    // Back where it was asked for: the card or its Reject button (the view takes focus back itself).
    if (viewingId === null && rejecting.opener) focusGoal.current = { element: rejecting.opener };
    setRejecting(null);
  };
  const closeView = () => {
    if (viewingId !== null) focusGoal.current = { photoId: viewingId };
    setViewingId(null);
  };
  const changePage = (next: number) => {
    setSelected(new Set());
    onPageChange(next);
    headingRef.current?.focus();
  };

  // Only the photos on screen count as chosen (a photo decided meanwhile has left the list).
  const selectable = list === 'pending';
  const chosen = selectable ? photos.filter((photo) => selected.has(photo.id)) : [];
  const allChosen = photos.length > 0 && chosen.length === photos.length;
  const choose = (photoId: number, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(photoId);
      else next.delete(photoId);
      return next;
    });
  const approveChosen = () => {
    const ids = chosen.slice(0, DESK.bulkMax).map((photo) => photo.id);
    if (ids.length === 0 || bulk.isPending) return;
    const labels = new Map(chosen.map((photo) => [photo.id, photoLabel(photo)]));
    bulk.mutate(ids, {
      onSuccess: (result) => {
        setSelected(new Set());
        showBulkResult(result, ids.length, (photoId) => labels.get(photoId) ?? `Photo #${photoId}`);
        headingRef.current?.focus();
      },
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between sm:gap-4">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
          {filter.label}
          {total !== undefined && <span className="ml-2 text-base font-normal text-muted-foreground tabular-nums">({formatCount(total)})</span>}
        </h2>
        {list === 'pending' && (
          <p className="flex items-start gap-1.5 text-sm text-muted-foreground sm:items-center">
            <Keyboard className="mt-0.5 size-4 shrink-0 sm:mt-0" aria-hidden="true" />
            <span>
              Focus a photo, then press <kbd className="rounded border bg-muted px-1.5 font-mono text-xs">A</kbd> to approve or{' '}
              <kbd className="rounded border bg-muted px-1.5 font-mono text-xs">R</kbd> to reject.{' '}
              <kbd className="rounded border bg-muted px-1.5 font-mono text-xs">Space</kbd> shows it large.
            </span>
          </p>
        )}
      </div>

      {isPending ? (
        <div role="status" aria-label="Loading photos" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <div key={index} className="overflow-hidden rounded-xl border bg-card">
              <Skeleton className="aspect-[4/3] w-full rounded-none" />
              <div className="flex flex-col gap-3 p-4">
                <Skeleton className="h-5 w-3/4" />
                <Skeleton className="h-4 w-1/2" />
                <div className="flex gap-2">
                  <Skeleton className="h-9 w-24" />
                  <Skeleton className="h-9 w-20" />
                </div>
              </div>
            </div>
          ))}
        </div>
      ) : error ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
            <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
            <p className="font-medium">{isUnauthorizedError(error) ? 'Your session has ended.' : 'The photos could not be loaded.'}</p>
            <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
              <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : photos.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 pt-6 text-center text-muted-foreground">
            <ImageOff className="size-10" aria-hidden="true" />
            {/* Decisions still on their way can empty a page the server has more photos for: those come next. */}
            <p ref={emptyRef} tabIndex={-1} className="outline-none">
              {total === 0 ? filter.empty : 'Loading the next photos...'}
            </p>
          </CardContent>
        </Card>
      ) : (
        <>
          {selectable && (
            <div role="group" aria-label="Bulk approval" className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border bg-card px-3 py-2">
              <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm sm:min-h-9">
                <Checkbox
                  checked={allChosen ? true : chosen.length > 0 ? 'indeterminate' : false}
                  disabled={bulk.isPending}
                  onCheckedChange={() => setSelected(allChosen ? new Set() : new Set(photos.map((photo) => photo.id)))}
                />
                Select all on this page
              </label>
              <Button size="sm" disabled={chosen.length === 0 || bulk.isPending} aria-busy={bulk.isPending || undefined} onClick={approveChosen}>
                {bulk.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CheckCheck aria-hidden="true" />}
                Approve selected ({chosen.length})
              </Button>
            </div>
          )}
          <ul aria-labelledby={headingId} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {photos.map((photo) => (
              <AdminPhotoCard
                key={photo.id}
                photo={photo}
                currentUserId={currentUserId}
                cardRef={(element) => {
                  if (element) cards.current.set(photo.id, element);
                  else cards.current.delete(photo.id);
                }}
                onApprove={approve}
                onRequestReject={requestReject}
                onView={(shown) => setViewingId(shown.id)}
                reversible={!held.has(photo.id)}
                selection={selectable ? { checked: selected.has(photo.id), onCheckedChange: (checked) => choose(photo.id, checked) } : undefined}
              />
            ))}
          </ul>
          {data.totalPages > 1 && (
            <nav aria-label="Pages" className="flex items-center justify-center gap-3">
              <Button variant="outline" size="sm" onClick={() => changePage(page - 1)} disabled={page <= 1}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <span className="text-sm text-muted-foreground tabular-nums">
                Page {page} of {data.totalPages}
              </span>
              <Button variant="outline" size="sm" onClick={() => changePage(page + 1)} disabled={page >= data.totalPages}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          )}
        </>
      )}

      <AdminReviewView
        photos={photos}
        photo={viewed}
        contentRef={viewRef}
        onNavigate={(photo) => setViewingId(photo.id)}
        onClose={closeView}
        onApprove={approve}
        onRequestReject={requestReject}
      />
      <RejectPhotoDialog
        open={rejecting !== null}
        onOpenChange={(open) => {
          if (!open) cancelReject();
        }}
        photoLabel={rejecting ? photoLabel(rejecting.photo) : ''}
        onReject={reject}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          // Over the review view, focus goes back into the view (its Reject button, or the view itself).
          const view = viewRef.current;
          if (!view?.isConnected) return;
          const opener = rejectOpener.current;
          if (opener?.isConnected && view.contains(opener)) opener.focus();
          else view.focus();
        }}
      />
    </section>
  );
}
