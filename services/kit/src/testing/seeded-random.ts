/** A number in [0, 1). */
export type Random = () => number;

/**
 * A small seeded generator (mulberry32): a failing randomized test can be replayed, and generated data (the seed's and
 * the benchmarks' photos) comes out the same on every run.
 */
export function seededRandom(seed: number): Random {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
