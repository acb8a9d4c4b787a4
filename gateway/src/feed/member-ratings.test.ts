import { describe, expect, it } from 'vitest';
import { MemberRatings } from './member-ratings.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('MemberRatings', () => {
  it('loads a member once, however many ask at once, and keeps the votes heard during the load', async () => {
    const answer = deferred<number[]>();
    let loads = 0;
    const ratings = new MemberRatings({ load: () => ((loads += 1), answer.promise) });
    const first = ratings.of('ann');
    const second = ratings.of('ann');
    ratings.rated('ann', 9); // heard while the load was under way, and not in its answer
    answer.resolve([1, 2]);
    expect([...(await first)].sort()).toEqual([1, 2, 9]);
    expect(await second).toBe(await first);
    ratings.rated('ann', 3);
    expect([...(await ratings.of('ann'))].sort()).toEqual([1, 2, 3, 9]);
    expect(loads).toBe(1);
  });

  it('loads again after maxAge, after forget, and forgets the least recently used member beyond maxMembers', async () => {
    let now = 0;
    const loaded: string[] = [];
    const ratings = new MemberRatings({ load: async (id) => (loaded.push(id), []), maxMembers: 2, maxAgeMs: 1_000, now: () => now });
    await ratings.of('ann');
    await ratings.of('bob');
    await ratings.of('ann'); // kept; bob is now the least recently used
    await ratings.of('cy'); // bob forgotten
    await ratings.of('ann');
    expect(loaded).toEqual(['ann', 'bob', 'cy']);
    await ratings.of('bob');
    expect(loaded).toEqual(['ann', 'bob', 'cy', 'bob']);
    now = 1_000;
    await ratings.of('bob');
    ratings.forget('cy');
    await ratings.of('cy');
    expect(loaded).toEqual(['ann', 'bob', 'cy', 'bob', 'bob', 'cy']);
  });

  it('lets a failed load be tried again', async () => {
    let fail = true;
    const ratings = new MemberRatings({ load: async () => (fail ? Promise.reject(new Error('down')) : [4]) });
    await expect(ratings.of('ann')).rejects.toThrow('down');
    fail = false;
    expect([...(await ratings.of('ann'))]).toEqual([4]);
  });
});
