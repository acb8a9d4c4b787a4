import { Envelope, EventBatch } from '@snapcracks/proto/events/v1';

/**
 * What an outbox row holds and a bus message carries: one encoded Envelope, or an EventBatch of events of one type
 * committed together. A batch costs one row, one publish and one delivery per consumer instead of one per event.
 */
export interface EncodedEvents {
  /** The event's id, or the batch's own: the bus drops a repeated publish of it. */
  id: string;
  /** The type of every event it holds; the bus subject follows it. */
  type: string;
  data: Uint8Array;
}

/** EventBatch's one field (16, length-delimited) as the first tag of its bytes; an Envelope never has field 16. */
const BATCH_TAG = (16 << 3) | 2;

/** The events of a message: an EventBatch's, or the one Envelope it is. Throws on bytes that are neither. */
export function decodeEvents(data: Uint8Array): Envelope[] {
  return firstTag(data) === BATCH_TAG ? EventBatch.decode(data).events : [Envelope.decode(data)];
}

/** One event as an Envelope, several as an EventBatch. */
export function encodeEvents(events: readonly Envelope[]): Uint8Array {
  if (events.length === 1) return Envelope.encode(events[0]!).finish();
  return EventBatch.encode({ events: [...events] }).finish();
}

/** The first varint of a protobuf message's bytes (its first field's tag), or -1 when there is none. */
function firstTag(data: Uint8Array): number {
  let tag = 0;
  for (let i = 0, shift = 0; i < data.length && i < 5; i++, shift += 7) {
    tag |= (data[i]! & 0x7f) << shift;
    if (data[i]! < 0x80) return tag >>> 0;
  }
  return -1;
}
