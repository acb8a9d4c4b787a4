import { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';

/**
 * An event a consumer gave up on: its handler failed on every delivery the retry policy allows (or the event could
 * not even be decoded). It is kept, never dropped, until an operator replays or discards it.
 */
export interface DeadLetter {
  /** Its place in the dead-letter queue: the dead-letter stream's sequence number (NATS), a counter (in process). */
  seq: number;
  /** The durable name that gave up on it (e.g. "stats-votes"), or "ephemeral" for a broadcast subscription. */
  consumer: string;
  /** '' when the event could not be decoded. */
  eventId: string;
  type: string;
  /** Deliveries it got before the consumer gave up. */
  deliveries: number;
  /** The last error, on one line. */
  error: string;
  failedAt: Date;
  /**
   * The bytes a replay sends, exactly what the producer built: on NATS the message as published and signed (one
   * Envelope, or the whole EventBatch the event came in; an unreadable message as it came), in process the event's
   * Envelope.
   */
  data: Uint8Array;
}

/** Where a bus keeps its dead letters; `pnpm events:dead-letters` lists and replays those of NATS. */
export interface DeadLetterQueue {
  /** Oldest first; `consumer` keeps one consumer's. */
  list(options?: { consumer?: string; limit?: number }): Promise<DeadLetter[]>;
  /**
   * Delivers the event again and removes the dead letter. In process it goes back to the consumer that gave up on it;
   * on NATS it is published to its subject again, so every consumer of its type receives it, and those that handled
   * it already skip it (processed_events), as with any redelivery.
   */
  replay(seq: number): Promise<void>;
  /** Removes the dead letter without delivering it. */
  discard(seq: number): Promise<void>;
}

const MAX_ERROR_LENGTH = 500;

/** An error as one short line: dead letters carry it in NATS headers, which allow no line breaks. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.replace(/[\r\n]+/g, ' ').trim();
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}

/** The event's id and type, from the decoded event or, failing that, its bytes. */
export function identify(data: Uint8Array, event?: Envelope): { eventId: string; type: string } {
  if (event) return { eventId: event.id, type: event.type };
  try {
    const decoded = Envelope.decode(data);
    return { eventId: decoded.id, type: decoded.type };
  } catch {
    return { eventId: '', type: '' };
  }
}

/** The one error line an operator sees for a dead letter (its stack included, as `err`). */
export function logDeadLetter(logger: Logger, letter: Omit<DeadLetter, 'data' | 'failedAt' | 'error'>, err: unknown, where: string): void {
  logger.error(
    { err, consumer: letter.consumer, eventId: letter.eventId, type: letter.type, deliveries: letter.deliveries, deadLetter: letter.seq },
    `event handler failed on every delivery; event moved to the dead letters (${where})`,
  );
}
