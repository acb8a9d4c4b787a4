import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

interface Item {
  key: string;
  value: number;
}

/** A writer whose batches finish only when the test says so, recording what each batch held. */
function heldWriter() {
  const batches: Item[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const write = (items: Item[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push(items);
      finishers.push((error) => (error ? reject(error) : resolve(items.map((item) => item.value * 10))));
    });
  return { batches, write, finish: (i: number, error?: Error) => finishers[i]!(error) };
}

const item = (key: string, value: number): Item => ({ key, value });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes a lone item at once, and items that arrive meanwhile together in the next batch', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 1, keyOf: (i: Item) => i.key });
    const first = commits.submit(item('a', 1));
    await Promise.resolve();
    expect(writer.batches).toEqual([[item('a', 1)]]);
    const later = [commits.submit(item('b', 2)), commits.submit(item('c', 3)), commits.submit(item('d', 4))];
    await settle();
    expect(writer.batches).toHaveLength(1);
    writer.finish(0);
    expect(await first).toBe(10);
    await settle();
    expect(writer.batches[1]).toEqual([item('b', 2), item('c', 3), item('d', 4)]);
    writer.finish(1);
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('never puts one key twice in a batch, and keeps the order of what waits', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 1, keyOf: (i: Item) => i.key });
    const all = [item('x', 0), item('a', 1), item('a', 2), item('b', 3), item('a', 4), item('c', 5)].map((i) => commits.submit(i));
    for (let batch = 0; batch < 3; batch++) {
      await settle();
      writer.finish(batch);
    }
    expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(writer.batches).toEqual([[item('x', 0), item('a', 1), item('b', 3), item('c', 5)], [item('a', 2)], [item('a', 4)]]);
  });

  it('with repeatsInBatch, puts one key’s items in one batch in their order, but none of a key another batch is writing', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 2, keyOf: (i: Item) => i.key, repeatsInBatch: true });
    const first = commits.submit(item('b', 0));
    await settle();
    const all = [item('a', 1), item('b', 2), item('a', 3), item('c', 4), item('b', 5), item('a', 6)].map((i) => commits.submit(i));
    await settle();
    // b is being written: its later items wait, in order, for the batch after it; a's three go together.
    expect(writer.batches).toEqual([[item('b', 0)], [item('a', 1), item('a', 3), item('c', 4), item('a', 6)]]);
    writer.finish(0);
    await settle();
    expect(writer.batches[2]).toEqual([item('b', 2), item('b', 5)]);
    writer.finish(1);
    writer.finish(2);
    expect(await Promise.all([first, ...all])).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('starts no batch holding a key another batch is writing, even with a writer free', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 2, keyOf: (i: Item) => i.key });
    const first = [commits.submit(item('a', 1)), commits.submit(item('b', 2))];
    await settle();
    const again = commits.submit(item('a', 3));
    const other = commits.submit(item('c', 4));
    await settle();
    expect(writer.batches).toEqual([[item('a', 1), item('b', 2)], [item('c', 4)]]);
    writer.finish(0);
    await settle();
    expect(writer.batches[2]).toEqual([item('a', 3)]);
    writer.finish(1);
    writer.finish(2);
    expect(await Promise.all([...first, again, other])).toEqual([10, 20, 30, 40]);
  });

  it('without keyOf, puts items with anything in common in one batch', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 1 });
    const all = [item('x', 0), item('a', 1), item('a', 2)].map((i) => commits.submit(i));
    await settle();
    writer.finish(0);
    expect(await Promise.all(all)).toEqual([0, 10, 20]);
    expect(writer.batches).toEqual([[item('x', 0), item('a', 1), item('a', 2)]]);
  });

  it('writes items submitted together as one batch, not a lone first item and the rest', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 2, keyOf: (i: Item) => i.key });
    const all = [item('a', 1), item('b', 2), item('c', 3)].map((i) => commits.submit(i));
    await settle();
    expect(writer.batches).toEqual([[item('a', 1), item('b', 2), item('c', 3)]]);
    writer.finish(0);
    expect(await Promise.all(all)).toEqual([10, 20, 30]);
  });

  it('writes at most maxBatch items together and at most maxInFlight batches at once', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 2, maxInFlight: 2, keyOf: (i: Item) => i.key });
    const all = Array.from({ length: 7 }, (_, i) => commits.submit(item(`k${i}`, i)));
    await settle();
    expect(writer.batches.map((b) => b.length)).toEqual([2, 2]);
    writer.finish(0);
    await settle();
    expect(writer.batches.map((b) => b.length)).toEqual([2, 2, 2]);
    for (let batch = 1; batch < 4; batch++) {
      writer.finish(batch);
      await settle();
    }
    expect(writer.batches.map((b) => b.length)).toEqual([2, 2, 2, 1]);
    expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('fails only the items of a failed batch; the next batch goes on', async () => {
    const writer = heldWriter();
    const commits = new GroupCommit(writer.write, { maxBatch: 10, maxInFlight: 1, keyOf: (i: Item) => i.key });
    const first = commits.submit(item('a', 1));
    await settle();
    const second = [commits.submit(item('b', 2)), commits.submit(item('c', 3))];
    writer.finish(0, new Error('deadlock'));
    await expect(first).rejects.toThrow('deadlock');
    await settle();
    writer.finish(1);
    expect(await Promise.all(second)).toEqual([20, 30]);
  });

  it('fails the batch when the writer answers the wrong number of results', async () => {
    const commits = new GroupCommit(async (items: Item[]) => items.slice(1).map((i) => i.value), { maxBatch: 10, maxInFlight: 1, keyOf: (i: Item) => i.key });
    await expect(commits.submit(item('a', 1))).rejects.toThrow('0 results for 1 items');
  });
});
