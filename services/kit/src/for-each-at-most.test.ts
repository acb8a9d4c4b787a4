import { describe, expect, it } from 'vitest';
import { forEachAtMost } from './for-each-at-most.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('forEachAtMost', () => {
  it('runs every item, in order, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachAtMost([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('starts nothing more after a failure, lets the items under way finish, then throws the first failure', async () => {
    const finished: number[] = [];
    const started: number[] = [];
    const run = forEachAtMost([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 1) throw new Error('one failed');
      await tick();
      finished.push(item);
    });
    await expect(run).rejects.toThrow('one failed');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });

  it('starts nothing more once `until` answers true, and runs one at a time for a limit below one', async () => {
    const started: number[] = [];
    await forEachAtMost([1, 2, 3, 4], 0, async (item) => void started.push(item), { until: () => started.length >= 2 });
    expect(started).toEqual([1, 2]);
  });
});
