import { PRIVACY_BARS } from './rules.js';

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Rounding slack for x + width and y + height: clients compute percentages in floating point. */
const EDGE_SLACK = 1e-9;

const isPercent = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;

/** Four finite percentages, wider and taller than nothing, lying inside the image. */
export function isValidPrivacyBar({ x, y, width, height }: Bar): boolean {
  return [x, y, width, height].every(isPercent) && width > 0 && height > 0 && x + width <= 100 + EDGE_SLACK && y + height <= 100 + EDGE_SLACK;
}

/** The first problem of a photo's bars, as the person is told it, or undefined when there is none. */
export function privacyBarsProblem(bars: readonly Bar[]): string | undefined {
  if (bars.length > PRIVACY_BARS.maxPerPhoto) return PRIVACY_BARS.tooMany;
  return bars.every(isValidPrivacyBar) ? undefined : PRIVACY_BARS.invalid;
}
