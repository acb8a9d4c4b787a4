/**
 * Pure geometry of privacy bars (SPEC §5). Bars are stored as percentages (0–100) of the image, so
 * they stay in place whatever size the image is shown at; pixels only matter for the minimum size.
 */
import { PRIVACY_BARS } from '@snapcracks/http-contract';
import type { PrivacyBar } from '@/lib/types';

export const MAX_PRIVACY_BARS = PRIVACY_BARS.maxPerPhoto;
/** A dragged bar is kept only when wider AND taller than this (percent of the image). */
export const KEEP_THRESHOLD_PERCENT = PRIVACY_BARS.minKeptPercent;
/** The bar being dragged is only drawn once larger than this in both dimensions. */
export const PREVIEW_THRESHOLD_PERCENT = PRIVACY_BARS.minPreviewPercent;
/** The smallest a bar may be on screen, in CSS pixels. */
export const MIN_BAR_SIZE_PX = PRIVACY_BARS.minOnScreenPx;
/** How far an arrow key moves or resizes the selected bar (percent). */
export const KEYBOARD_STEP_PERCENT = 1;
/** How far an arrow key moves or resizes with a larger step (percent), e.g. with Alt/Option held. */
export const KEYBOARD_LARGE_STEP_PERCENT = 5;
/** The bar the "Add bar" button places in the middle of the image. */
export const DEFAULT_BAR_SIZE = { width: 30, height: 10 } as const;

export interface Point {
  x: number;
  y: number;
}

/** The smallest bar, in percent of the image, that still measures MIN_BAR_SIZE_PX on screen. */
export interface MinSize {
  width: number;
  height: number;
}

const clampNumber = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Keeps two decimals: enough precision for any screen, and tidy JSON. */
export const roundPercent = (value: number) => Math.round(value * 100) / 100;

/** A pointer position inside `rect` (e.g. the image's bounding box) as percentages, clamped to the image. */
export function pointToPercent(
  clientX: number,
  clientY: number,
  rect: { left: number; top: number; width: number; height: number },
): Point {
  if (rect.width <= 0 || rect.height <= 0) return { x: 0, y: 0 };
  return {
    x: clampNumber(((clientX - rect.left) / rect.width) * 100, 0, 100),
    y: clampNumber(((clientY - rect.top) / rect.height) * 100, 0, 100),
  };
}

/** The rectangle spanned by a drag, whichever way it went. */
export function rectFromPoints(start: Point, end: Point): PrivacyBar {
  return {
    x: Math.min(start.x, end.x),
    y: Math.min(start.y, end.y),
    width: Math.abs(end.x - start.x),
    height: Math.abs(end.y - start.y),
  };
}

/** Whether the bar being dragged is big enough to draw (above 1 % in both dimensions). */
export function shouldShowPreview(bar: PrivacyBar): boolean {
  return bar.width > PREVIEW_THRESHOLD_PERCENT && bar.height > PREVIEW_THRESHOLD_PERCENT;
}

/** Whether a dragged bar is kept on release (wider AND taller than 2 %). */
export function shouldKeepBar(bar: PrivacyBar): boolean {
  return bar.width > KEEP_THRESHOLD_PERCENT && bar.height > KEEP_THRESHOLD_PERCENT;
}

/** MIN_BAR_SIZE_PX as percentages of an image shown at `widthPx` × `heightPx`. */
export function minSizeForImage(widthPx: number, heightPx: number): MinSize {
  const toPercent = (px: number) => (px > 0 ? Math.min(100, (MIN_BAR_SIZE_PX / px) * 100) : 0);
  return { width: toPercent(widthPx), height: toPercent(heightPx) };
}

/**
 * Fits a bar inside the image: at least the minimum size, at most the whole image, and moved back
 * inside if it sticks out. Values are rounded to two decimals.
 */
export function clampBar(bar: PrivacyBar, minSize: MinSize = { width: 0, height: 0 }): PrivacyBar {
  const width = clampNumber(bar.width, Math.min(100, minSize.width), 100);
  const height = clampNumber(bar.height, Math.min(100, minSize.height), 100);
  return {
    x: roundPercent(clampNumber(bar.x, 0, 100 - width)),
    y: roundPercent(clampNumber(bar.y, 0, 100 - height)),
    width: roundPercent(width),
    height: roundPercent(height),
  };
}

/** The bar a finished drag produces, or null when it is too small to keep. */
export function finishDrag(start: Point, end: Point, minSize?: MinSize): PrivacyBar | null {
  const rect = rectFromPoints(start, end);
  return shouldKeepBar(rect) ? clampBar(rect, minSize) : null;
}

/** A bar of DEFAULT_BAR_SIZE in the middle of the image (for keyboard users). */
export function centeredBar(minSize?: MinSize): PrivacyBar {
  const { width, height } = DEFAULT_BAR_SIZE;
  return clampBar({ x: 50 - width / 2, y: 50 - height / 2, width, height }, minSize);
}

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

export function isArrowKey(key: string): key is ArrowKey {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';
}

/**
 * Moves the bar one step in the arrow's direction, or with `resize` grows/shrinks it from its
 * bottom-right corner (Right/Down grow, Left/Up shrink). The result stays inside the image and at
 * least the minimum size.
 */
export function nudgeBar(
  bar: PrivacyBar,
  key: ArrowKey,
  { resize = false, step = KEYBOARD_STEP_PERCENT, minSize }: { resize?: boolean; step?: number; minSize?: MinSize } = {},
): PrivacyBar {
  const dx = key === 'ArrowLeft' ? -step : key === 'ArrowRight' ? step : 0;
  const dy = key === 'ArrowUp' ? -step : key === 'ArrowDown' ? step : 0;
  if (!resize) return clampBar({ ...bar, x: bar.x + dx, y: bar.y + dy }, minSize);
  // Growing stops at the image's edge rather than pushing the bar back inside.
  return clampBar(
    {
      ...bar,
      width: Math.min(bar.width + dx, 100 - bar.x),
      height: Math.min(bar.height + dy, 100 - bar.y),
    },
    minSize,
  );
}

/** Adds a bar unless the limit is reached; returns the same array when nothing was added. */
export function addBar(bars: PrivacyBar[], bar: PrivacyBar): PrivacyBar[] {
  return bars.length >= MAX_PRIVACY_BARS ? bars : [...bars, bar];
}
