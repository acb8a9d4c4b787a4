import type { PrivacyBar } from './types.js';

export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Privacy bars in pixels of an image of the given size. Bars come from people's clients, so they are
 * clamped to the image rather than trusted, and edges are rounded outwards: a bar always covers at
 * least what was asked, never a pixel less. Empty or malformed bars are dropped.
 */
export function barsToPixels(bars: readonly PrivacyBar[], width: number, height: number): PixelRect[] {
  const rects: PixelRect[] = [];
  for (const bar of bars) {
    if (![bar.x, bar.y, bar.width, bar.height].every(Number.isFinite)) continue;
    if (bar.width <= 0 || bar.height <= 0) continue;
    const left = clamp(Math.floor((bar.x / 100) * width), 0, width);
    const top = clamp(Math.floor((bar.y / 100) * height), 0, height);
    const right = clamp(Math.ceil(((bar.x + bar.width) / 100) * width), 0, width);
    const bottom = clamp(Math.ceil(((bar.y + bar.height) / 100) * height), 0, height);
    if (right > left && bottom > top) rects.push({ left, top, width: right - left, height: bottom - top });
  }
  return rects;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
