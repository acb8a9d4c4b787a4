import type { Envelope } from '@snapcracks/proto/events/v1';
import type { DeadLetterQueue } from './dead-letters.js';
import type { EncodedEvents } from './event-messages.js';

/** A message that can be encoded into an envelope payload (any ts-proto message type). */
export interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}

/** Handles one delivered event. Throwing makes the bus redeliver it later. */
export type EventHandler = (event: Envelope) => Promise<void>;

export interface SubscribeOptions {
  /**
   * Durable consumer name. Every instance of a service subscribes with the same name, so each event is
   * handled once per service (work-queue semantics) and survives restarts. Without it the subscription is
   * ephemeral and every instance sees every event from now on (broadcast, e.g. cache invalidation).
   */
  durable?: string;
  /** Event types to receive, e.g. ["photo.photo.uploaded", "vote.vote.cast"]; `>` wildcards allowed as in NATS. */
  types: string[];
  /**
   * Events this subscription hands its handler at once (1 by default: one after the other, a batch's in its order).
   * More suits a handler that batches them (createBatchConsumer) and events whose order does not matter (state with
   * a version).
   */
  concurrency?: number;
  /**
   * The component subscribing, as its metrics name it; by default the service its durable name starts with, else the
   * process's component.
   */
  component?: string;
}

export interface Subscription {
  /** Stops delivery; in-flight handlers finish first. */
  close(): Promise<void>;
}

/**
 * The event bus every service uses. Two implementations: NATS JetStream (microservices, or all-in-one
 * with NATS_URL) and in-process (all-in-one default). Publishing is normally done by the outbox relay,
 * never directly from a request handler, so a change and its event commit together.
 */
export interface EventBus {
  /**
   * Resolves once the event is safe: stored in the stream (NATS), or handled by every durable subscriber (in
   * process, where nothing outlives the process). The outbox marks an event published only then.
   */
  publish(event: Envelope): Promise<void>;
  /**
   * Publishes what one outbox row holds (one event, or a batch of events of one type) with the same guarantee. NATS
   * carries a batch as one message; every subscriber still receives, handles and fails each event on its own.
   */
  publishEncoded(message: EncodedEvents): Promise<void>;
  /** True for a bus that lives and dies with this process: no other process shares its work. */
  readonly inProcess?: boolean;
  /** The events consumers gave up on after the retry policy's last delivery, for an operator to replay or discard. */
  readonly deadLetters: DeadLetterQueue;
  subscribe(handler: EventHandler, options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}
