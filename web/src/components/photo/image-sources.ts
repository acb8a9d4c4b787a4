import type { GalleryPhoto } from '@/lib/types';
import type { ImageSource } from './retrying-image';

/**
 * Which of a photo's images a card loads. Storage makes three of every photo, each a WebP bounded on its longest edge
 * (it fits inside a square of that side and is never enlarged; services/storage/src/media/types.ts): the thumbnail
 * (480 px), the medium image (960 px) and the display image (2048 px). A card gives the browser all three with the
 * width each really has (`photoImageSources`), and the width the photo takes on screen (`cardSizes`), so it loads the
 * smallest one that is sharp there: the medium image for a card on a dense screen (a 390 px phone at 3×, a laptop at
 * 2×), the thumbnail on an ordinary one, never the display image in a grid.
 */

/** The longest edge of each image storage makes, in pixels. */
export const DERIVATIVE_EDGES = { thumbnail: 480, medium: 960, display: 2048 } as const;

/** What every photo JSON (GalleryPhoto, UserPhoto, AdminPhoto) says about its images. */
export type PhotoImages = Pick<GalleryPhoto, 'thumbnailUrl' | 'mediumUrl' | 'displayUrl' | 'width' | 'height'>;

type Size = Pick<GalleryPhoto, 'width' | 'height'>;

const hasSize = ({ width, height }: Size) => width > 0 && height > 0;

/** The width in pixels of the derivative of `photo` bounded by `edge` (storage rounds as this does, to the pixel). */
export function derivativeWidth(photo: Size, edge: number): number {
  if (!hasSize(photo)) return edge;
  const longest = Math.max(photo.width, photo.height);
  return longest <= edge ? photo.width : Math.max(1, Math.round((photo.width * edge) / longest));
}

/**
 * The srcset candidates of a photo, smallest first: its thumbnail, medium and display images, each with its real
 * width (a portrait's medium image is 720 px wide, not 960), so the browser's arithmetic is right for every shape. A
 * photo of unknown size (0 × 0) is taken as landscape (480, 960, 2048). An image no wider than the one before it (a
 * photo under 960 or 2048 px, which storage does not enlarge) is left out: the smaller file shows the same pixels.
 * Until the backfill has made a photo's medium image, its URL answers the display image; that only makes a card
 * sharper for a while.
 */
export function photoImageSources(photo: PhotoImages): ImageSource[] {
  const candidates: ImageSource[] = [
    { url: photo.thumbnailUrl, width: derivativeWidth(photo, DERIVATIVE_EDGES.thumbnail) },
    { url: photo.mediumUrl, width: derivativeWidth(photo, DERIVATIVE_EDGES.medium) },
    { url: photo.displayUrl, width: derivativeWidth(photo, DERIVATIVE_EDGES.display) },
  ];
  return candidates.filter((candidate, index) => index === 0 || candidate.width > candidates[index - 1]!.width);
}

/** The shape of the box a card contains its photo in (object-contain): a width / height ratio, or the photo's own within bounds. */
export type CardFrame = number | { min: number; max: number };

/** How a grid shows its cards in one band of viewport widths. */
export interface CardBand {
  /** The band's media condition; none for the last band, which takes every other viewport. */
  media?: string;
  /**
   * The card's width: fixed CSS pixels, or (100vw − offset) / columns; or, on phones, the width at which the photo's
   * medium image is as dense as `mediumAt` (see PHONE_BANDS).
   */
  width: { px: number } | { offset: number; columns: number } | { mediumAt: number };
  frame: CardFrame;
}

/** A grid of photo cards, its bands widest first. */
export interface CardGrid {
  bands: readonly CardBand[];
}

/** The pages' container: max-w-7xl (1280 px) with px-4, sm:px-6 and lg:px-8 (page-header.tsx, gallery-section.tsx). */
const CONTAINER = 1280;
const PADDING = [
  { from: 1024, px: 32 },
  { from: 640, px: 24 },
  { from: 0, px: 16 },
] as const;
/** Tailwind's sm, lg and xl, where the pages' padding and the grids' columns change. */
const BREAKPOINTS = [1280, 1024, 640] as const;

/**
 * Phones (one column, below 640 px) of density 1.9 and more take the medium image, whatever the photo's shape. Browsers
 * take the first image at least as dense as the screen (Chromium 156, WebKit and Gecko alike), and a 960 px image over
 * a 358 px card at 3× (1,074 device px) is 2.7×: by the card's width they would fetch the 2048 px display image
 * (~650 kB) for every card. So in each band of densities a card is declared as wide as its photo's medium image is at
 * the band's highest density: the medium image is dense enough there, and the thumbnail, half as wide, is not. A 390 px
 * phone at 3× then shows it enlarged 1.12× (a portrait's, 720 px wide, 1.49×; at most 1.85×, a portrait on a 412 px
 * phone at 3.5×), where it enlarged the thumbnail 2.2–3×.
 */
const PHONE_BANDS = [
  { media: '(min-resolution: 2.9dppx)', upTo: 3.6 }, // 3×, 3.5×
  { media: '(min-resolution: 2.4dppx)', upTo: 2.9 }, // 2.5×, 2.625×, 2.75× (Android)
  { media: '(min-resolution: 1.9dppx)', upTo: 2.4 }, // 2×
] as const;
/** Without a photo, the narrowest medium image a usual photo has: a 3:4 portrait's. */
const NARROW_MEDIUM = { width: 3000, height: 4000 };

/**
 * A grid of the pages' container: `gap` px between cards, `columns` from each breakpoint up (one below the first), each
 * card containing its photo in `frame` (in one column, `phoneFrame`).
 */
export function cardGrid({ gap, columns, frame, phoneFrame = frame }: { gap: number; columns: Record<number, number>; frame: CardFrame; phoneFrame?: CardFrame }): CardGrid {
  const columnsAt = (viewport: number) =>
    Object.entries(columns)
      .map(([from, count]) => [Number(from), count] as const)
      .filter(([from]) => viewport >= from)
      .sort(([a], [b]) => b - a)[0]?.[1] ?? 1;
  const paddingAt = (viewport: number) => PADDING.find((p) => viewport >= p.from)!.px;
  const bands: CardBand[] = BREAKPOINTS.filter((from) => columnsAt(from) > 1).map((from) => {
    const count = columnsAt(from);
    const offset = 2 * paddingAt(from) + (count - 1) * gap;
    const width = from >= CONTAINER ? { px: Math.round((CONTAINER - offset) / count) } : { offset, columns: count };
    return { media: `(min-width: ${from}px)`, width, frame };
  });
  for (const band of PHONE_BANDS) bands.push({ media: band.media, width: { mediumAt: band.upTo }, frame: phoneFrame });
  bands.push({ width: { offset: 2 * paddingAt(0), columns: 1 }, frame: phoneFrame });
  return { bands };
}

/**
 * The public gallery (gallery-photo-grid.tsx, photo-card.tsx): gap-6, two columns from sm, three from lg, each card a
 * 4:3 frame; in one column the frame takes the photo's own shape, kept between 3:4 and 16:9.
 */
export const GALLERY_GRID = cardGrid({ gap: 24, columns: { 640: 2, 1024: 3 }, frame: 4 / 3, phoneFrame: { min: 3 / 4, max: 16 / 9 } });
/** My Uploads on the dashboard (my-uploads-section.tsx, user-photo-card.tsx): the gallery's grid, 4:3 frames everywhere. */
export const DASHBOARD_GRID = cardGrid({ gap: 24, columns: { 640: 2, 1024: 3 }, frame: 4 / 3 });
/** The admin review list (admin-review-list.tsx, contained-photo.tsx): gap-4, two columns from sm, three from xl, 4:3 frames. */
export const ADMIN_GRID = cardGrid({ gap: 16, columns: { 640: 2, 1280: 3 }, frame: 4 / 3 });

/** How much of its card's width a photo takes when contained in `frame` (1 when its shape is unknown). */
export function shareOfCard(photo: Size, frame: CardFrame): number {
  if (!hasSize(photo)) return 1;
  const ratio = photo.width / photo.height;
  const box = typeof frame === 'number' ? frame : Math.min(frame.max, Math.max(frame.min, ratio));
  return Math.min(1, ratio / box);
}

const decimal = (value: number) => String(Number(value.toFixed(4)));

function bandWidth(width: CardBand['width'], photo: Size | undefined, share: number): string {
  if ('mediumAt' in width) return `${Math.floor(derivativeWidth(photo && hasSize(photo) ? photo : NARROW_MEDIUM, DERIVATIVE_EDGES.medium) / width.mediumAt)}px`;
  if ('px' in width) return `${Math.round(width.px * share)}px`;
  const perColumn = share / width.columns;
  if (perColumn === 1) return `calc(100vw - ${width.offset}px)`;
  return share === 1 ? `calc((100vw - ${width.offset}px) / ${width.columns})` : `calc((100vw - ${width.offset}px) * ${decimal(perColumn)})`;
}

/**
 * The `sizes` of a card's image in `grid`. With a photo: the width its picture takes in each band (a portrait in a 4:3
 * frame takes 56% of the card, so a 1.5× laptop loads its thumbnail, not its medium image) and, on phones, the
 * width that makes its medium image the one loaded. Without one: the card's width, and on phones a 3:4 portrait's
 * figures (an even taller photo may then get its display image on a phone).
 */
export function cardSizes(grid: CardGrid, photo?: Size): string {
  return grid.bands
    .map((band) => {
      const width = bandWidth(band.width, photo, photo ? shareOfCard(photo, band.frame) : 1);
      return band.media ? `${band.media} ${width}` : width;
    })
    .join(', ');
}

/** The gallery's cards' width, whatever their photo (prefer `cardSizes(GALLERY_GRID, photo)`). */
export const GALLERY_CARD_SIZES = cardSizes(GALLERY_GRID);
/** My Uploads' cards' width, whatever their photo (prefer `cardSizes(DASHBOARD_GRID, photo)`). */
export const DASHBOARD_CARD_SIZES = cardSizes(DASHBOARD_GRID);
/** The admin review cards' width, whatever their photo (prefer `cardSizes(ADMIN_GRID, photo)`). */
export const ADMIN_CARD_SIZES = cardSizes(ADMIN_GRID);

/**
 * What a card passes to RetryingImage for `photo` in `grid`: `<RetryingImage {...cardImage(photo, GALLERY_GRID)} alt=… />`.
 * `src` (the fallback, and what a browser without srcset would show) is the medium image.
 */
export function cardImage(photo: PhotoImages, grid: CardGrid): { src: string; sources: ImageSource[]; sizes: string } {
  return { src: photo.mediumUrl, sources: photoImageSources(photo), sizes: cardSizes(grid, photo) };
}

/** The viewer's frame (photo-dialog.tsx): max-w-3xl less its padding, 42vh tall on phones, else 90vh less 20rem within 16–40rem. */
export function viewerFrame(viewport: { width: number; height: number }): { width: number; height: number } {
  const phone = viewport.width < 640;
  const dialog = Math.min(768, viewport.width - 32);
  const width = dialog - (phone ? 32 : 48);
  const height = phone ? 0.42 * viewport.height : Math.max(256, Math.min(640, 0.9 * viewport.height - 320));
  return { width, height };
}

/**
 * The image the viewer shows: the medium image when, contained in the frame at the screen's density, the photo needs
 * no more than its pixels (a phone: it loads and is watermarked a quarter as many pixels faster), else the display
 * image.
 */
export function viewerImageUrl(photo: PhotoImages, viewport: { width: number; height: number; density: number }): string {
  if (!hasSize(photo)) return photo.displayUrl;
  const frame = viewerFrame(viewport);
  const scale = Math.min(frame.width / photo.width, frame.height / photo.height);
  const devicePixelsWide = photo.width * scale * viewport.density;
  // Enlarged by at most 15 %: a 3024×4032 portrait on a 390 px phone at 3× (797 device px over its 720).
  return devicePixelsWide <= derivativeWidth(photo, DERIVATIVE_EDGES.medium) * 1.15 ? photo.mediumUrl : photo.displayUrl;
}
