import { describe, expect, it } from 'vitest';
import { barsToPixels } from './bars.js';

describe('barsToPixels', () => {
  it('converts percentages of the image to pixels, rounding outwards', () => {
    expect(barsToPixels([{ x: 10, y: 20, width: 30, height: 40 }], 200, 100)).toEqual([{ left: 20, top: 20, width: 60, height: 40 }]);
    expect(barsToPixels([{ x: 10.1, y: 0.1, width: 10, height: 0.1 }], 480, 320)).toEqual([{ left: 48, top: 0, width: 49, height: 1 }]);
  });

  it('clamps bars to the image and drops empty or malformed ones', () => {
    expect(barsToPixels([{ x: 90, y: -10, width: 50, height: 30 }], 100, 100)).toEqual([{ left: 90, top: 0, width: 10, height: 20 }]);
    expect(
      barsToPixels(
        [
          { x: 120, y: 0, width: 10, height: 10 },
          { x: 0, y: 0, width: 0, height: 10 },
          { x: Number.NaN, y: 0, width: 10, height: 10 },
          { x: 0, y: 0, width: -5, height: 10 },
        ],
        100,
        100,
      ),
    ).toEqual([]);
  });
});
