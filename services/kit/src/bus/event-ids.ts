import { v7 } from 'uuid';

/**
 * A new event's id, or an outbox row's: a UUIDv7, which starts with the time it was made, so the indexes that record
 * ids as they come (every consumer's processed_events, every outbox) add each new one at their right edge, on a page
 * already in memory, where a random (v4) id lands on a random page of the whole index: one page read from outside
 * PostgreSQL's buffers, and after a checkpoint one page image in the WAL, per event. Still unique and unguessable.
 */
export const newEventId = (): string => v7();
