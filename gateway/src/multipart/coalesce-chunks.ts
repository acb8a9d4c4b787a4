/**
 * A multipart file arrives in pieces the size of the socket's reads (often 16–64 KiB). Each piece forwarded as
 * its own gRPC message costs an encode and a decode per hop on the event loop that also answers every other
 * request, so an upload burst slowed everyone's calls. Forwarding pieces of at least `minBytes` cuts that cost
 * by an order of magnitude for the price of one copy per piece.
 */
export const FORWARD_CHUNK_BYTES = 512 * 1024;

export async function* coalesceChunks(pieces: AsyncIterable<Uint8Array>, minBytes = FORWARD_CHUNK_BYTES): AsyncGenerator<Buffer> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const piece of pieces) {
    if (piece.byteLength === 0) continue;
    pending.push(piece);
    pendingBytes += piece.byteLength;
    if (pendingBytes >= minBytes) {
      yield Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
