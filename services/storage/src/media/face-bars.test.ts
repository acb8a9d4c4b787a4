import { describe, expect, it } from 'vitest';
import { FACE_PADDING, MAX_SUGGESTED_BARS, MIN_SUGGESTED_PERCENT, faceBoxesToBars } from './face-bars.js';

describe('faceBoxesToBars', () => {
  it('pads each face on every side and answers percentages with two decimals', () => {
    // A face 20 % wide and 10 % tall at (40 %, 30 %): 10 % of its size is added on each side.
    expect(FACE_PADDING).toBe(0.1);
    expect(faceBoxesToBars([{ x: 0.4, y: 0.3, width: 0.2, height: 0.1 }])).toEqual([{ x: 38, y: 29, width: 24, height: 12 }]);
    expect(faceBoxesToBars([{ x: 1 / 3, y: 1 / 7, width: 1 / 9, height: 1 / 11 }])).toEqual([
      { x: 32.22, y: 13.38, width: 13.34, height: 10.91 },
    ]);
  });

  it('clips a face at the edge to the image instead of moving the bar off the face', () => {
    expect(faceBoxesToBars([{ x: -0.05, y: 0.9, width: 0.2, height: 0.2 }])).toEqual([{ x: 0, y: 88, width: 17, height: 12 }]);
    expect(faceBoxesToBars([{ x: 0.85, y: 0, width: 0.15, height: 0.3 }])).toEqual([{ x: 83.5, y: 0, width: 16.5, height: 33 }]);
    const [bar] = faceBoxesToBars([{ x: 1 / 3, y: 1 / 3, width: 2 / 3, height: 2 / 3 }]);
    expect(bar).toEqual({ x: 26.67, y: 26.67, width: 73.33, height: 73.33 });
    expect(bar!.x + bar!.width).toBeLessThanOrEqual(100);
  });

  it('grows a tiny face to a bar the editor keeps, about its centre', () => {
    const [bar] = faceBoxesToBars([{ x: 0.5, y: 0.5, width: 0.004, height: 0.006 }]);
    expect(bar).toEqual({ x: 48.95, y: 49.05, width: MIN_SUGGESTED_PERCENT, height: MIN_SUGGESTED_PERCENT });
  });

  it('drops boxes that are empty, outside the image or not numbers', () => {
    expect(
      faceBoxesToBars([
        { x: 0.1, y: 0.1, width: 0, height: 0.1 },
        { x: 1.5, y: 0.1, width: 0.1, height: 0.1 },
        { x: Number.NaN, y: 0.1, width: 0.1, height: 0.1 },
        { x: 0.1, y: 0.1, width: -0.1, height: 0.1 },
      ]),
    ).toEqual([]);
    expect(faceBoxesToBars([])).toEqual([]);
  });

  it('keeps the largest faces up to the limit, in reading order', () => {
    // A 5 × 5 grid of faces growing in width, the smallest in the top row.
    const faces = Array.from({ length: 25 }, (_, index) => ({
      x: 0.1 + (index % 5) * 0.18,
      y: 0.1 + Math.floor(index / 5) * 0.18,
      width: 0.02 + index * 0.002,
      height: 0.05,
    }));
    const bars = faceBoxesToBars(faces);
    expect(bars).toHaveLength(MAX_SUGGESTED_BARS);
    expect(Math.min(...bars.map((bar) => bar.y))).toBeGreaterThan(20);
    const order = bars.map((bar) => [bar.y, bar.x] as const);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  });
});
