import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@snapcracks/kit';
import { scheduleRaterFigures } from './rater-figures-schedule.js';

const logger = createLogger('test', 'silent');
const MINUTE = 60_000;

/** A figures table computed `ageMs` ago (none with null), whose refreshes are recorded with their condition. */
function fakeRaters(ageMs: number | null) {
  const refreshes: { at: number; unlessComputedWithinMs: number | undefined }[] = [];
  return {
    refreshes,
    computedAt: async () => (ageMs === null ? null : new Date(Date.now() - ageMs)),
    refreshAll: async (options: { unlessComputedWithinMs?: number } = {}) => {
      refreshes.push({ at: Date.now(), unlessComputedWithinMs: options.unlessComputedWithinMs });
      return 3;
    },
  };
}

describe('scheduleRaterFigures', () => {
  let start: number;
  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.now();
  });
  afterEach(() => vi.useRealTimers());

  it('computes figures first when the stored ones fall due, then every interval, leaving those computed within half of it', async () => {
    const raters = fakeRaters(9 * MINUTE);
    const schedule = scheduleRaterFigures(raters, 10 * MINUTE, logger);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(raters.refreshes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(raters.refreshes.map((r) => r.at - start)).toEqual([MINUTE, 11 * MINUTE, 21 * MINUTE]);
    expect(raters.refreshes.every((r) => r.unlessComputedWithinMs === 5 * MINUTE)).toBe(true);
    schedule.stop();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(raters.refreshes).toHaveLength(3);
  });

  it('computes them at once when none are stored, and waits a whole interval after figures just computed', async () => {
    const none = fakeRaters(null);
    const fresh = fakeRaters(0);
    const schedules = [scheduleRaterFigures(none, 10 * MINUTE, logger), scheduleRaterFigures(fresh, 10 * MINUTE, logger)];
    await vi.advanceTimersByTimeAsync(0);
    expect(none.refreshes.map((r) => r.at - start)).toEqual([0]);
    expect(fresh.refreshes).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(fresh.refreshes.map((r) => r.at - start)).toEqual([10 * MINUTE]);
    schedules.forEach((s) => s.stop());
  });

  it('with an interval of 0, computes them once at start whatever their age', async () => {
    const raters = fakeRaters(0);
    scheduleRaterFigures(raters, 0, logger).stop();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(raters.refreshes).toEqual([{ at: start, unlessComputedWithinMs: undefined }]);
  });

  it('keeps its schedule when a refresh fails', async () => {
    const raters = fakeRaters(null);
    let calls = 0;
    raters.refreshAll = async () => {
      calls += 1;
      throw new Error('database down');
    };
    const schedule = scheduleRaterFigures(raters, MINUTE, logger);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(calls).toBe(3);
    schedule.stop();
  });

  it('waits out an interval longer than a timer can, leaving figures that are still fresh', async () => {
    const raters = fakeRaters(0);
    const schedule = scheduleRaterFigures(raters, 60 * 24 * 60 * MINUTE, logger);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(raters.refreshes).toEqual([]);
    schedule.stop();
  });
});
