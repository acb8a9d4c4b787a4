import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { DomainError, InvalidArgumentError } from '../errors.js';

/**
 * The server side of streaming calls. Both helpers respect back-pressure: reading pulls one message at a
 * time from grpc-js (which stops reading the socket while we are busy), writing waits for `drain`.
 */

export interface UploadParts<Req, H> {
  /** The header when `message` is one. */
  header(message: Req): H | undefined;
  /** The bytes when `message` is a chunk. */
  chunk(message: Req): Uint8Array | undefined;
}

export interface UploadLimits {
  maxBytes: number;
  /** The error for a stream longer than maxBytes (its message is shown to the user). */
  tooLarge(): Error;
}

/**
 * A client stream of one header followed by chunks of bytes: returns the header at once and the chunks as
 * they arrive, refusing a missing or repeated header and more than `maxBytes` in total.
 */
export async function readHeaderAndChunks<Req, H>(
  stream: AsyncIterable<Req>,
  parts: UploadParts<Req, H>,
  limits: UploadLimits,
): Promise<{ header: H; chunks: AsyncIterable<Buffer> }> {
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? undefined : parts.header(first.value);
  if (header === undefined) throw new InvalidArgumentError('The stream must start with its header');
  async function* chunks(): AsyncIterable<Buffer> {
    let total = 0;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const bytes = parts.chunk(next.value);
      if (bytes === undefined) throw new InvalidArgumentError('Only one header is allowed');
      total += bytes.byteLength;
      if (total > limits.maxBytes) throw limits.tooLarge();
      yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    // A cancelled call may end like a finished one: never take a cut-off stream for the whole.
    if ((stream as { cancelled?: boolean }).cancelled) throw new DomainError('cancelled', 'The upload was cancelled');
  }
  return { header, chunks: chunks() };
}

/** Writes every message to a server stream, waiting whenever the client is slower than we are. */
export async function writeStream<Res>(call: Writable & { cancelled?: boolean }, messages: AsyncIterable<Res> | Iterable<Res>): Promise<void> {
  for await (const message of messages) {
    if (call.cancelled || call.destroyed) return;
    if (!call.write(message)) await Promise.race([once(call, 'drain'), once(call, 'close')]);
  }
}

/** Splits bytes into chunks below gRPC's message limit. */
export function* chunksOf(data: Uint8Array, size = 64 * 1024): Iterable<Uint8Array> {
  for (let offset = 0; offset < data.byteLength; offset += size) yield data.subarray(offset, Math.min(offset + size, data.byteLength));
}
