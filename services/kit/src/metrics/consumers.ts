import { SERVICE_NAMES } from '../component.js';
import { instruments } from './instruments.js';
import { onEveryProvider, processComponent } from './provider.js';

export type DeliveryOutcome = 'ok' | 'retry' | 'dead';

/** What one consumer records; its attribute objects are made once, when it subscribes. */
export interface ConsumerRecorder {
  delivered(outcome: DeliveryOutcome): void;
  redelivered(): void;
  deadLetters(count: number): void;
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
  };
}

/** How often a consumer's lag is asked of JetStream at most, however often metrics are collected. */
const LAG_REFRESH_MS = 15_000;

interface ObservedLag {
  attributes: { component: string; consumer: string };
  read: () => Promise<number>;
  last?: { at: number; value: number };
  reading?: Promise<void>;
}

const lags = new Set<ObservedLag>();

onEveryProvider((meter) => {
  meter
    .createObservableGauge('snapcracks.consumer.lag', {
      description: 'Messages in the stream that the durable consumer has not been delivered yet (JetStream num_pending)',
      unit: '{message}',
    })
    .addCallback(async (result) => {
      await Promise.all([...lags].map(refreshIfStale));
      for (const lag of lags) if (lag.last) result.observe(lag.last.value, lag.attributes);
    });
});

function refreshIfStale(lag: ObservedLag): Promise<void> {
  if (lag.last && Date.now() - lag.last.at < LAG_REFRESH_MS) return Promise.resolve();
  lag.reading ??= lag
    .read()
    .then((value) => {
      lag.last = { at: Date.now(), value };
    })
    .catch(() => undefined)
    .finally(() => {
      lag.reading = undefined;
    });
  return lag.reading;
}

/** Reports a durable consumer's lag, read with `read` at most every 15 s; returns the function that stops it. */
export function observeConsumerLag(component: string, consumer: string, read: () => Promise<number>): () => void {
  const observed: ObservedLag = { attributes: { component, consumer }, read };
  lags.add(observed);
  return () => void lags.delete(observed);
}
