export type { EventBus, EventHandler, MessageCodec, SubscribeOptions, Subscription } from './event-bus.js';
export { Envelope } from '@snapcracks/proto/events/v1';
export { EventTypes, makeEvent, decodeEvent, decodeEventOfType, type DecodedEvent, type EventType, type EventPayload } from './event-types.js';
export { createNatsEventBus, type NatsEventBusOptions } from './nats-event-bus.js';
export { createMemoryEventBus, type MemoryEventBusOptions } from './memory-event-bus.js';
export { defaultRetryPolicy, type Backoff, type RetryPolicy } from './retry-policy.js';
export type { DeadLetter, DeadLetterQueue } from './dead-letters.js';
export { deadLetterStream, ensureDeadLetterStream, natsDeadLetterQueue, openNatsDeadLetters } from './nats-dead-letters.js';
export { bindToActiveTrace } from './trace-context.js';
