import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeedOrder, type FeedPhotoState, type FeedTotals } from './feed-order.js';

type Fact = { kind: 'state'; id: number; state: FeedPhotoState } | { kind: 'totals'; id: number; totals: FeedTotals };

/** What the photo service's query answers: approved photos by vote count, newest approval, highest id. */
function expected(facts: Fact[], skip: (id: number, ownerId: string) => boolean): number[] {
  const states = new Map<number, FeedPhotoState>();
  const totals = new Map<number, FeedTotals>();
  for (const fact of facts) {
    if (fact.kind === 'state') {
      const known = states.get(fact.id);
      const newer = !known || fact.state.version > known.version || (fact.state.version === known.version && fact.state.deleted && !known.deleted);
      if (newer) states.set(fact.id, fact.state);
    } else if (fact.totals.version > (totals.get(fact.id)?.version ?? 0)) totals.set(fact.id, fact.totals);
  }
  return [...states]
    .filter(([id, s]) => !s.deleted && s.approvedAtMs !== null && !skip(id, s.ownerId))
    .map(([id, s]) => ({ id, count: totals.get(id)?.count ?? 0, at: s.approvedAtMs! }))
    .sort((a, b) => a.count - b.count || b.at - a.at || b.id - a.id)
    .map(({ id }) => id);
}

const owners = ['ann', 'bob', 'cy'];
const fact: fc.Arbitrary<Fact> = fc.oneof(
  fc.record({
    kind: fc.constant('state' as const),
    id: fc.integer({ min: 1, max: 30 }),
    state: fc.record({
      ownerId: fc.constantFrom(...owners),
      // Few distinct times, so ties fall to the id.
      approvedAtMs: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      version: fc.integer({ min: 1, max: 6 }),
      deleted: fc.boolean(),
    }),
  }),
  fc.record({
    kind: fc.constant('totals' as const),
    id: fc.integer({ min: 1, max: 30 }),
    totals: fc.record({ count: fc.integer({ min: 0, max: 5 }), sum: fc.integer({ min: 0, max: 25 }), version: fc.integer({ min: 1, max: 8 }) }),
  }),
);

/** A version names one state (one totals) of a photo: the first fact generated for it stands for all of them. */
function canonical(facts: Fact[]): Fact[] {
  const seen = new Map<string, Fact>();
  return facts.map((f) => {
    const key = `${f.kind}:${f.id}:${f.kind === 'state' ? f.state.version : f.totals.version}`;
    if (!seen.has(key)) seen.set(key, f);
    return seen.get(key)!;
  });
}

function apply(order: FeedOrder, facts: Fact[]): void {
  for (const f of facts) {
    if (f.kind === 'state') order.applyState(f.id, f.state);
    else order.applyTotals(f.id, f.totals);
  }
}

describe('FeedOrder', () => {
  it('orders as the query does, whatever order the facts arrive in and however often', () => {
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 120 }).map(canonical), fc.integer({ min: 0, max: 2 ** 31 }), (facts, seed) => {
        const shuffled = fc.sample(fc.shuffledSubarray([...facts, ...facts], { minLength: facts.length * 2 }), { seed, numRuns: 1 })[0]!;
        const order = new FeedOrder();
        apply(order, shuffled);
        const skipAnn = (_id: number, ownerId: string) => ownerId === 'ann';
        expect(order.page(() => false, 0, 1_000)).toEqual(expected(facts, () => false));
        expect(order.page(skipAnn, 0, 1_000)).toEqual(expected(facts, skipAnn));
        const all = expected(facts, () => false);
        expect(order.approvedCount).toBe(all.length);
        for (const owner of owners) expect(order.approvedOf(owner)).toBe(expected(facts, (_id, o) => o !== owner).length);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps order across many photos of one vote count (buckets split into chunks), as votes move them in and out', () => {
    let seed = 11;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const order = new FeedOrder();
    const facts: Fact[] = [];
    const ids = Array.from({ length: 3_000 }, (_, i) => i + 1).sort(() => random() - 0.5);
    for (const id of ids) facts.push({ kind: 'state', id, state: { ownerId: 'ann', approvedAtMs: Math.floor(random() * 50), version: 1 } });
    for (const id of ids.slice(0, 1_500)) facts.push({ kind: 'totals', id, totals: { count: 1 + Math.floor(random() * 2), sum: 4, version: 1 } });
    for (const id of ids.slice(0, 700)) facts.push({ kind: 'totals', id, totals: { count: 0, sum: 0, version: 2 } });
    apply(order, facts);
    expect(order.page(() => false, 0, 10_000)).toEqual(expected(facts, () => false));
    expect(order.page(() => false, 1_234, 100)).toEqual(expected(facts, () => false).slice(1_234, 1_334));
  });

  it('pages: an offset counts only the photos not left out', () => {
    const order = new FeedOrder();
    for (let id = 1; id <= 10; id++) order.applyState(id, { ownerId: id % 2 ? 'ann' : 'bob', approvedAtMs: 100 - id, version: 1 });
    order.applyTotals(1, { count: 3, sum: 9, version: 1 });
    const notAnn = (_id: number, ownerId: string) => ownerId === 'ann';
    expect(order.page(notAnn, 0, 2)).toEqual([2, 4]);
    expect(order.page(notAnn, 2, 2)).toEqual([6, 8]);
    expect(order.page(notAnn, 4, 2)).toEqual([10]);
    expect(order.page(() => false, 8, 5)).toEqual([10, 1]);
  });

  it('counts a change of the approved set, not a vote', () => {
    const order = new FeedOrder();
    const before = order.listingVersion;
    order.applyState(1, { ownerId: 'ann', approvedAtMs: null, version: 1 });
    expect(order.listingVersion).toBe(before);
    order.applyState(1, { ownerId: 'ann', approvedAtMs: 5, version: 2 });
    expect(order.listingVersion).toBe(before + 1);
    order.applyTotals(1, { count: 1, sum: 4, version: 1 });
    expect(order.listingVersion).toBe(before + 1);
    expect(order.applyState(1, { ownerId: 'ann', approvedAtMs: null, version: 1 })).toBe(false);
    order.applyState(1, { ownerId: 'ann', approvedAtMs: 5, version: 3, deleted: true });
    expect(order.listingVersion).toBe(before + 2);
    expect(order.approvedCount).toBe(0);
  });
});
