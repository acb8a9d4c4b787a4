import { describe, expect, it } from 'vitest';
import {
  MAX_PRIVACY_BARS,
  addBar,
  centeredBar,
  clampBar,
  finishDrag,
  isArrowKey,
  minSizeForImage,
  nudgeBar,
  pointToPercent,
  rectFromPoints,
  shouldKeepBar,
  shouldShowPreview,
} from './geometry';

const rect = { left: 100, top: 50, width: 400, height: 200 };

describe('privacy bar geometry', () => {
  it('turns pointer positions into clamped percentages of the image', () => {
    expect(pointToPercent(300, 150, rect)).toEqual({ x: 50, y: 50 });
    expect(pointToPercent(0, 0, rect)).toEqual({ x: 0, y: 0 });
    expect(pointToPercent(900, 900, rect)).toEqual({ x: 100, y: 100 });
    expect(pointToPercent(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toEqual({ x: 0, y: 0 });
  });

  it('normalises a drag in any direction', () => {
    const expected = { x: 10, y: 20, width: 30, height: 40 };
    expect(rectFromPoints({ x: 10, y: 20 }, { x: 40, y: 60 })).toEqual(expected);
    expect(rectFromPoints({ x: 40, y: 60 }, { x: 10, y: 20 })).toEqual(expected);
    expect(rectFromPoints({ x: 40, y: 20 }, { x: 10, y: 60 })).toEqual(expected);
  });

  it('shows the temporary bar only above 1 % in both dimensions', () => {
    expect(shouldShowPreview({ x: 0, y: 0, width: 1.01, height: 1.01 })).toBe(true);
    expect(shouldShowPreview({ x: 0, y: 0, width: 1, height: 50 })).toBe(false);
    expect(shouldShowPreview({ x: 0, y: 0, width: 50, height: 1 })).toBe(false);
  });

  it('keeps a bar only when wider AND taller than 2 %', () => {
    expect(shouldKeepBar({ x: 0, y: 0, width: 2.01, height: 2.01 })).toBe(true);
    expect(shouldKeepBar({ x: 0, y: 0, width: 2, height: 50 })).toBe(false);
    expect(shouldKeepBar({ x: 0, y: 0, width: 50, height: 2 })).toBe(false);
    expect(finishDrag({ x: 10, y: 10 }, { x: 11.5, y: 40 })).toBeNull();
    expect(finishDrag({ x: 40, y: 40 }, { x: 10, y: 10 })).toEqual({ x: 10, y: 10, width: 30, height: 30 });
  });

  it('converts the 10 px minimum into percentages of the shown image', () => {
    expect(minSizeForImage(400, 200)).toEqual({ width: 2.5, height: 5 });
    expect(minSizeForImage(5, 0)).toEqual({ width: 100, height: 0 });
  });

  it('clamps bars inside the image and to the minimum size', () => {
    expect(clampBar({ x: 90, y: -5, width: 20, height: 10 })).toEqual({ x: 80, y: 0, width: 20, height: 10 });
    expect(clampBar({ x: -10, y: 0, width: 150, height: 120 })).toEqual({ x: 0, y: 0, width: 100, height: 100 });
    expect(clampBar({ x: 99, y: 99, width: 2.2, height: 2.2 }, { width: 5, height: 4 })).toEqual({
      x: 95,
      y: 96,
      width: 5,
      height: 4,
    });
    // A kept drag smaller than 10 px on screen grows to 10 px.
    expect(finishDrag({ x: 10, y: 10 }, { x: 13, y: 13 }, minSizeForImage(200, 200))).toEqual({
      x: 10,
      y: 10,
      width: 5,
      height: 5,
    });
    expect(clampBar({ x: 1.23456, y: 0, width: 10.98765, height: 10 })).toEqual({
      x: 1.23,
      y: 0,
      width: 10.99,
      height: 10,
    });
  });

  it('centres the default bar', () => {
    expect(centeredBar()).toEqual({ x: 35, y: 45, width: 30, height: 10 });
  });

  it('moves the bar with the arrow keys, staying inside the image', () => {
    const bar = { x: 10, y: 10, width: 20, height: 20 };
    expect(nudgeBar(bar, 'ArrowRight')).toEqual({ ...bar, x: 11 });
    expect(nudgeBar(bar, 'ArrowLeft', { step: 5 })).toEqual({ ...bar, x: 5 });
    expect(nudgeBar(bar, 'ArrowUp')).toEqual({ ...bar, y: 9 });
    expect(nudgeBar(bar, 'ArrowDown')).toEqual({ ...bar, y: 11 });
    expect(nudgeBar({ ...bar, x: 0 }, 'ArrowLeft')).toEqual({ ...bar, x: 0 });
    expect(nudgeBar({ ...bar, x: 80 }, 'ArrowRight')).toEqual({ ...bar, x: 80 });
  });

  it('resizes the bar with Shift+arrow, within the image and above the minimum', () => {
    const bar = { x: 10, y: 10, width: 20, height: 20 };
    expect(nudgeBar(bar, 'ArrowRight', { resize: true })).toEqual({ ...bar, width: 21 });
    expect(nudgeBar(bar, 'ArrowLeft', { resize: true })).toEqual({ ...bar, width: 19 });
    expect(nudgeBar(bar, 'ArrowDown', { resize: true })).toEqual({ ...bar, height: 21 });
    expect(nudgeBar(bar, 'ArrowUp', { resize: true })).toEqual({ ...bar, height: 19 });
    expect(nudgeBar({ ...bar, x: 80 }, 'ArrowRight', { resize: true })).toEqual({ ...bar, x: 80 });
    const minSize = { width: 19.5, height: 19.5 };
    expect(nudgeBar(bar, 'ArrowLeft', { resize: true, minSize })).toEqual({ ...bar, width: 19.5 });
  });

  it('recognises arrow keys', () => {
    expect(isArrowKey('ArrowUp')).toBe(true);
    expect(isArrowKey('Enter')).toBe(false);
  });

  it(`adds at most ${MAX_PRIVACY_BARS} bars`, () => {
    const bar = centeredBar();
    let bars: ReturnType<typeof centeredBar>[] = [];
    for (let i = 0; i < MAX_PRIVACY_BARS + 3; i += 1) bars = addBar(bars, bar);
    expect(bars).toHaveLength(MAX_PRIVACY_BARS);
    expect(addBar(bars, bar)).toBe(bars);
  });
});
