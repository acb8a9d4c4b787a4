import { describe, expect, it } from 'vitest';
import { coalesceChunks } from './coalesce-chunks.js';

async function* pieces(...sizes: number[]): AsyncGenerator<Buffer> {
  let next = 0;
  for (const size of sizes) yield Buffer.from(Array.from({ length: size }, () => next++ % 256));
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of source) out.push(chunk);
  return out;
}

describe('coalesceChunks', () => {
  it('joins small pieces into chunks of at least the minimum, keeping every byte in order', async () => {
    const out = await collect(coalesceChunks(pieces(3, 4, 2, 5, 1), 6));
    expect(out.map((c) => c.length)).toEqual([7, 7, 1]);
    expect([...Buffer.concat(out)]).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('passes a large piece on as it is, skips empty ones, and yields nothing for an empty file', async () => {
    expect((await collect(coalesceChunks(pieces(0, 10, 0), 4))).map((c) => c.length)).toEqual([10]);
    expect(await collect(coalesceChunks(pieces(), 4))).toEqual([]);
  });

  it('stops with the source: an error in the file stream reaches the caller', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(2);
      throw new Error('connection reset');
    }
    await expect(collect(coalesceChunks(failing(), 4))).rejects.toThrow('connection reset');
  });
});
