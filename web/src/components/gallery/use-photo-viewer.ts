import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { GalleryFilterId, GalleryPhoto } from '@/lib/types';
import { fetchGalleryPage, galleryQueryKey } from '@/queries/gallery';

/** How long the stars just picked stay on screen before Need your Vote moves on to the next photo. */
export const AUTO_ADVANCE_MS = 700;

interface ViewerState {
  /** The grid's cards when the viewer opened: shown behind it until it closes. */
  grid: GalleryPhoto[];
  /** The list as it was when the viewer opened (and what was added to it), in its order: votes never reshuffle it. */
  photos: GalleryPhoto[];
  index: number;
  open: boolean;
  /** Need your Vote has nothing left to rate. */
  caughtUp: boolean;
}

/**
 * The gallery's photo viewer: which photo it shows, moving through the page it was opened from, and on Need your
 * Vote moving on by itself to the next photo not yet rated after each vote (asking the server for more when the
 * page is done). While it is open the grid behind it keeps the list it was opened on (`gridPhotos`), so a vote does
 * not reshuffle the cards; cards and viewer still show each photo's newest totals from `livePhotos`.
 */
export function usePhotoViewer(filter: GalleryFilterId, livePhotos: GalleryPhoto[]) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ViewerState | null>(null);
  const stateRef = useRef(state);
  const voted = useRef(new Set<number>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    stateRef.current = state;
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const live = new Map(livePhotos.map((photo) => [photo.id, photo]));
  const newest = (photo: GalleryPhoto) => live.get(photo.id) ?? photo;

  const move = (next: (current: ViewerState) => ViewerState) => {
    clearTimeout(timer.current);
    setState((current) => current && next(current));
  };

  const advanceToUnrated = async () => {
    const current = stateRef.current;
    if (!current?.open) return;
    const { photos, index } = current;
    const order = [...photos.keys()].slice(index + 1).concat([...photos.keys()].slice(0, index));
    const nextIndex = order.find((candidate) => !voted.current.has(photos[candidate]!.id));
    if (nextIndex !== undefined) {
      setState({ ...current, index: nextIndex });
      return;
    }
    // Every photo of this page is rated: ask what still needs a vote (the votes just cast are left out of it).
    const fresh = await queryClient
      .fetchQuery({ queryKey: galleryQueryKey(filter, 1), queryFn: () => fetchGalleryPage(filter, 1), staleTime: 0 })
      .catch(() => null);
    if (!fresh || stateRef.current !== current) return;
    const known = new Set(photos.map((photo) => photo.id));
    const more = fresh.photos.filter((photo) => !known.has(photo.id) && !voted.current.has(photo.id));
    setState(more.length ? { ...current, photos: [...photos, ...more], index: photos.length } : { ...current, caughtUp: true });
  };

  return {
    isOpen: state?.open ?? false,
    /** Kept after closing, so the dialog can animate out with its content. */
    state,
    photo: state ? newest(state.photos[state.index]!) : null,
    gridPhotos: state?.open ? state.grid.map(newest) : livePhotos,
    open(photo: GalleryPhoto) {
      clearTimeout(timer.current);
      voted.current = new Set();
      const index = livePhotos.findIndex((candidate) => candidate.id === photo.id);
      setState({ grid: livePhotos, photos: livePhotos, index: Math.max(0, index), open: true, caughtUp: false });
    },
    setOpen(open: boolean) {
      move((current) => ({ ...current, open }));
    },
    previous: state && state.index > 0 && !state.caughtUp ? () => move((current) => ({ ...current, index: current.index - 1 })) : undefined,
    next:
      state && state.index < state.photos.length - 1 && !state.caughtUp
        ? () => move((current) => ({ ...current, index: current.index + 1 }))
        : undefined,
    preload: state ? [state.photos[state.index - 1], state.photos[state.index + 1]].filter((photo): photo is GalleryPhoto => photo !== undefined) : [],
    onVoted(photoId: number) {
      voted.current.add(photoId);
      if (filter !== 'need-your-vote') return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void advanceToUnrated(), AUTO_ADVANCE_MS);
    },
  };
}
