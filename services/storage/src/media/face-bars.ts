import { PRIVACY_BARS } from '@snapcracks/http-contract';

import type { PrivacyBar } from './types.js';

/** A detected face: its box in fractions (0–1) of the upright image's width and height. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The tiny face detector's box already reaches from the hairline to below the chin; a little more on each side
 * covers ears and the edge of the hair without hiding much of the photo (a 100 px box gets a 120 px bar).
 */
export const FACE_PADDING = 0.1;
/** The editor keeps bars larger than 2 % in both directions (spec §5); a tiny face still gets a keepable bar. */
export const MIN_SUGGESTED_PERCENT = 2.5;
/** A photo holds at most as many bars as the privacy-bars route takes. */
export const MAX_SUGGESTED_BARS = PRIVACY_BARS.maxPerPhoto;

const round = (value: number) => Math.round(value * 100) / 100;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Privacy bars proposing to cover `faces`: padded, at least MIN_SUGGESTED_PERCENT wide and tall (grown about
 * their centre), clipped to the image, in percentages with two decimals as the editor keeps them. The largest
 * faces win when there are more than MAX_SUGGESTED_BARS; the bars come in reading order (top to bottom, then
 * left to right), which is the order a keyboard user tabs through them. Boxes that are not finite or have no
 * area inside the image are dropped.
 */
export function faceBoxesToBars(faces: readonly FaceBox[]): PrivacyBar[] {
  const bars: PrivacyBar[] = [];
  for (const face of faces) {
    if (![face.x, face.y, face.width, face.height].every(Number.isFinite) || face.width <= 0 || face.height <= 0) continue;
    const width = Math.max(face.width * (1 + 2 * FACE_PADDING) * 100, MIN_SUGGESTED_PERCENT);
    const height = Math.max(face.height * (1 + 2 * FACE_PADDING) * 100, MIN_SUGGESTED_PERCENT);
    const centreX = (face.x + face.width / 2) * 100;
    const centreY = (face.y + face.height / 2) * 100;
    const left = clamp(centreX - width / 2, 0, 100);
    const top = clamp(centreY - height / 2, 0, 100);
    const right = clamp(centreX + width / 2, 0, 100);
    const bottom = clamp(centreY + height / 2, 0, 100);
    // Rounded edges, then sizes from them, so x + width never passes 100 by a rounding step.
    const [x, y] = [round(left), round(top)];
    const [barWidth, barHeight] = [round(round(right) - x), round(round(bottom) - y)];
    if (barWidth <= 0 || barHeight <= 0) continue;
    bars.push({ x, y, width: barWidth, height: barHeight });
  }
  return bars
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, MAX_SUGGESTED_BARS)
    .sort((a, b) => a.y - b.y || a.x - b.x);
}
