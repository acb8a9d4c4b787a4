import { newEventId } from './event-ids.js';
import {
  ContactFormStatusChanged,
  ContactFormSubmitted,
  NotificationCreated,
  PhotoDeleted,
  PhotoMilestonesReached,
  PhotoStatusChanged,
  PhotoUpdated,
  PhotoUploaded,
  ReportsDecided,
  UserDeleted,
  UserUpdated,
  VoteCast,
  type Envelope,
} from '@snapcracks/proto/events/v1';
import type { MessageCodec } from './event-bus.js';
import { activeTraceparent } from './trace-context.js';

/** Every event type on the bus, grouped by the service that produces it. */
export const EventTypes = {
  auth: { userUpdated: 'auth.user.updated', userDeleted: 'auth.user.deleted' },
  photo: {
    photoUploaded: 'photo.photo.uploaded',
    photoStatusChanged: 'photo.photo.status_changed',
    photoUpdated: 'photo.photo.updated',
    photoDeleted: 'photo.photo.deleted',
  },
  vote: { voteCast: 'vote.vote.cast', photoMilestonesReached: 'vote.photo.milestones_reached' },
  moderation: { reportsDecided: 'moderation.reports.decided' },
  support: {
    contactFormSubmitted: 'support.contact_form.submitted',
    contactFormStatusChanged: 'support.contact_form.status_changed',
    notificationCreated: 'support.notification.created',
  },
} as const;

/** The message each type carries in its payload. */
const payloadCodecs = {
  [EventTypes.auth.userUpdated]: UserUpdated,
  [EventTypes.auth.userDeleted]: UserDeleted,
  [EventTypes.photo.photoUploaded]: PhotoUploaded,
  [EventTypes.photo.photoStatusChanged]: PhotoStatusChanged,
  [EventTypes.photo.photoUpdated]: PhotoUpdated,
  [EventTypes.photo.photoDeleted]: PhotoDeleted,
  [EventTypes.vote.voteCast]: VoteCast,
  [EventTypes.vote.photoMilestonesReached]: PhotoMilestonesReached,
  [EventTypes.support.contactFormSubmitted]: ContactFormSubmitted,
  [EventTypes.support.contactFormStatusChanged]: ContactFormStatusChanged,
  [EventTypes.moderation.reportsDecided]: ReportsDecided,
  [EventTypes.support.notificationCreated]: NotificationCreated,
};

export type EventType = keyof typeof payloadCodecs;
export type EventPayload<T extends EventType> = (typeof payloadCodecs)[T] extends MessageCodec<infer P> ? P : never;

// Codecs of different messages can be structurally compatible, so the compiler alone cannot rule out
// passing the wrong one; this check makes a mismatch fail at once instead of writing unreadable events.
function assertCodecOf(type: string, codec: MessageCodec<unknown>): void {
  if (payloadCodecs[type as EventType] !== codec) throw new Error(`"${type}" events do not carry the payload of the given codec`);
}

/**
 * Builds the envelope for a change, e.g. `makeEvent('auth.user.updated', UserUpdated, payload, { source: 'auth' })`.
 * It gets a fresh id (consumers deduplicate by it), the current time and the active trace context.
 */
export function makeEvent<T extends EventType>(
  type: T,
  codec: MessageCodec<EventPayload<T>>,
  payload: EventPayload<T>,
  options: { source: string },
): Envelope {
  assertCodecOf(type, codec);
  return {
    id: newEventId(),
    type,
    occurredAt: new Date(),
    source: options.source,
    traceparent: activeTraceparent(),
    payload: Buffer.from(codec.encode(payload).finish()),
  };
}

/** A delivered event with its payload decoded; `type` tells which payload it is. */
export type DecodedEvent<T extends EventType = EventType> = T extends EventType
  ? { type: T; id: string; occurredAt: Date | undefined; source: string; payload: EventPayload<T> }
  : never;

/** Decodes the payload of an event of a known type; throws for an unknown one. */
export function decodeEventOfType<T extends EventType>(event: Envelope, types: readonly T[]): DecodedEvent<T> {
  if (!(types as readonly string[]).includes(event.type)) throw new Error(`Unexpected event type "${event.type}"`);
  const codec = payloadCodecs[event.type as T] as unknown as MessageCodec<EventPayload<T>>;
  return { type: event.type, id: event.id, occurredAt: event.occurredAt, source: event.source, payload: codec.decode(event.payload) } as DecodedEvent<T>;
}

/** The payload of a delivered event, e.g. `decodeEvent(event, UserUpdated)`; throws if the event's type carries another message. */
export function decodeEvent<P>(event: Envelope, codec: MessageCodec<P>): P {
  assertCodecOf(event.type, codec);
  return codec.decode(event.payload);
}
