import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { readChunks, readHeaderAndChunks } from './streams.js';

type Message = { header: string } | { chunk: Uint8Array } | { trailer: string };

/** A client stream as grpc-js hands it to a handler: its messages, then `cancelled` when the caller gave up. */
function streamOf<M>(messages: M[], cancelled = false): AsyncIterable<M> & { cancelled: boolean } {
  return {
    cancelled,
    async *[Symbol.asyncIterator]() {
      yield* messages;
    },
  };
}

const parts = {
  header: (m: Message) => ('header' in m ? m.header : undefined),
  chunk: (m: Message) => ('chunk' in m ? m.chunk : undefined),
  trailer: (m: Message) => ('trailer' in m ? m.trailer : undefined),
};
const limits = { maxBytes: 10, tooLarge: () => new InvalidArgumentError('Too large') };
const bytes = (n: number) => ({ chunk: new Uint8Array(n) });

async function drain(chunks: AsyncIterable<Buffer>): Promise<number> {
  let total = 0;
  for await (const chunk of chunks) total += chunk.byteLength;
  return total;
}

describe('readHeaderAndChunks', () => {
  it('answers the header at once, then the chunks, and the trailer once they are read', async () => {
    const upload = await readHeaderAndChunks(streamOf<Message>([{ header: 'h' }, bytes(4), bytes(6), { trailer: 'late' }]), parts, limits);
    expect(upload.header).toBe('h');
    expect(upload.trailer()).toBeUndefined();
    expect(await drain(upload.chunks)).toBe(10);
    expect(upload.trailer()).toBe('late');
  });

  it('refuses a missing header, a second header, anything after the trailer and more than the limit', async () => {
    await expect(readHeaderAndChunks(streamOf<Message>([bytes(1)]), parts, limits)).rejects.toThrow('The stream must start with its header');
    const refusal = async (messages: Message[]) => drain((await readHeaderAndChunks(streamOf(messages), parts, limits)).chunks);
    await expect(refusal([{ header: 'h' }, { header: 'again' }])).rejects.toThrow('Only one header is allowed');
    await expect(refusal([{ header: 'h' }, { trailer: 'a' }, bytes(1)])).rejects.toThrow('Nothing may follow the last part');
    await expect(refusal([{ header: 'h' }, { trailer: 'a' }, { trailer: 'b' }])).rejects.toThrow('Nothing may follow the last part');
    await expect(refusal([{ header: 'h' }, bytes(6), bytes(5)])).rejects.toThrow('Too large');
  });

  it('takes a trailer as a chunk where the stream has none', async () => {
    const { header, chunk } = parts;
    const upload = await readHeaderAndChunks(streamOf<Message>([{ header: 'h' }, { trailer: 'late' }]), { header, chunk }, limits);
    await expect(drain(upload.chunks)).rejects.toThrow('Only one header is allowed');
  });
});

describe('readChunks', () => {
  it('reads the bytes up to the limit, and never takes a cancelled stream for a whole one', async () => {
    const chunk = (m: { chunk: Uint8Array }) => m.chunk;
    expect(await drain(readChunks(streamOf([bytes(3), bytes(7)]), chunk, limits))).toBe(10);
    await expect(drain(readChunks(streamOf([bytes(3), bytes(8)]), chunk, limits))).rejects.toThrow('Too large');
    await expect(drain(readChunks(streamOf([bytes(3)], true), chunk, limits))).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
