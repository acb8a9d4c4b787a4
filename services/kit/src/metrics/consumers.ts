import { SERVICE_NAMES } from '../component.js';
import { instruments } from './instruments.js';
import { processComponent } from './provider.js';
import { polledGauge } from './polled-gauge.js';
import type { RefusalReason } from '../bus/event-signatures.js';

export type DeliveryOutcome = 'ok' | 'retry' | 'dead';

/** What one consumer records; its attribute objects are made once, when it subscribes. */
export interface ConsumerRecorder {
  delivered(outcome: DeliveryOutcome): void;
  redelivered(): void;
  deadLetters(count: number): void;
  /** A message refused unhandled (NATS: a missing or wrong signature, a foreign type). */
  refused(reason: RefusalReason): void;
}

/**
 * The component a subscription belongs to: the one named, else the service its durable name starts with (services'
 * durable names are `<service>-<consumer>`; several services share one bus in the all-in-one process), else the process's.
 */
export function consumerComponent(component: string | undefined, durable: string | undefined): string {
  if (component) return component;
  const prefix = durable?.split('-')[0];
  if (prefix && (SERVICE_NAMES as readonly string[]).includes(prefix)) return prefix;
  return processComponent();
}

export function consumerRecorder(component: string, consumer: string): ConsumerRecorder {
  const attributes = { component, consumer };
  const outcomes = {
    ok: { ...attributes, outcome: 'ok' },
    retry: { ...attributes, outcome: 'retry' },
    dead: { ...attributes, outcome: 'dead' },
  };
  return {
    delivered: (outcome) => instruments().eventsDelivered.add(1, outcomes[outcome]),
    redelivered: () => instruments().eventsRedelivered.add(1, attributes),
    deadLetters: (count) => instruments().deadLetters.add(count, attributes),
    // Made on first use: refusals are rare, their reasons few.
    refused: (reason) => instruments().eventsRefused.add(1, { ...attributes, reason }),
  };
}

/** A consumer's lag, asked of JetStream at most every 15 s however often metrics are collected. */
const observeLag = polledGauge({
  name: 'snapcracks.consumer.lag',
  description: 'Messages in the stream that the durable consumer has not been delivered yet (JetStream num_pending)',
  unit: '{message}',
  refreshMs: 15_000,
});

/** Reports a durable consumer's lag, read with `read` at most every 15 s; returns the function that stops it. */
export function observeConsumerLag(component: string, consumer: string, read: () => Promise<number>): () => void {
  return observeLag({ component, consumer }, read);
}
