import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { DomainError, InvalidArgumentError } from '../errors.js';

/**
 * The server side of streaming calls. Both helpers respect back-pressure: reading pulls one message at a
 * time from grpc-js (which stops reading the socket while we are busy), writing waits for `drain`.
 */

export interface UploadParts<Req, H, T = never> {
  /** The header when `message` is one. */
  header(message: Req): H | undefined;
  /** The bytes when `message` is a chunk. */
  chunk(message: Req): Uint8Array | undefined;
  /** What may follow the bytes, once and last, when `message` is that (e.g. a description sent after the file). */
  trailer?(message: Req): T | undefined;
}

export interface UploadLimits {
  maxBytes: number;
  /** The error for a stream longer than maxBytes (its message is shown to the user). */
  tooLarge(): Error;
}

/**
 * A client stream of one header followed by chunks of bytes (and perhaps a trailer): returns the header at once and
 * the chunks as they arrive, refusing a missing or repeated header, anything after the trailer and more than
 * `maxBytes` in total. The trailer is known once the chunks have been read to their end.
 */
export async function readHeaderAndChunks<Req, H, T = never>(
  stream: AsyncIterable<Req>,
  parts: UploadParts<Req, H, T>,
  limits: UploadLimits,
): Promise<{ header: H; chunks: AsyncIterable<Buffer>; trailer(): T | undefined }> {
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? undefined : parts.header(first.value);
  if (header === undefined) throw new InvalidArgumentError('The stream must start with its header');
  let trailer: T | undefined;
  const bytesOf = (message: Req): Uint8Array | null => {
    if (trailer !== undefined) throw new InvalidArgumentError('Nothing may follow the last part');
    trailer = parts.trailer?.(message);
    if (trailer !== undefined) return null;
    const bytes = parts.chunk(message);
    if (bytes === undefined) throw new InvalidArgumentError('Only one header is allowed');
    return bytes;
  };
  return { header, chunks: boundedChunks(stream, iterator, bytesOf, limits), trailer: () => trailer };
}

/**
 * A client stream of chunks of bytes alone, as they arrive, refusing more than `maxBytes` in total; without limits
 * for a service that relays the bytes to the one that holds the rules.
 */
export function readChunks<Req>(stream: AsyncIterable<Req>, chunk: (message: Req) => Uint8Array, limits?: UploadLimits): AsyncIterable<Buffer> {
  return boundedChunks(stream, stream[Symbol.asyncIterator](), chunk, limits);
}

async function* boundedChunks<Req>(
  stream: AsyncIterable<Req>,
  iterator: AsyncIterator<Req>,
  bytesOf: (message: Req) => Uint8Array | null,
  limits: UploadLimits | undefined,
): AsyncIterable<Buffer> {
  let total = 0;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const bytes = bytesOf(next.value);
    if (bytes === null) continue;
    total += bytes.byteLength;
    if (limits && total > limits.maxBytes) throw limits.tooLarge();
    yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  // A cancelled call may end like a finished one: never take a cut-off stream for the whole.
  if ((stream as { cancelled?: boolean }).cancelled) throw new DomainError('cancelled', 'The upload was cancelled');
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
