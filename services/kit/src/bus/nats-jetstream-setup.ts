import { nanos } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { Logger } from '../logger.js';
import { DEFAULT_STREAM_SETTINGS, explained, streamLimitsConfig, updateStreamLimits, type StreamLimits } from './stream-settings.js';

/** Longer than the outbox relay's longest backoff, so a publish retried after an outage is still recognised. */
const DUPLICATE_WINDOW_MS = 5 * 60_000;

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * Creates the events stream unless it exists, with the configured replicas, storage and maximum age (how far back a
 * new durable consumer can start, and how long an outage of a consumer may last); an existing one is brought to the
 * configured replicas and age (its storage type cannot change).
 */
export async function ensureStream(
  jsm: JetStreamManager,
  stream: string,
  subjectPrefix: string,
  options: { limits?: StreamLimits; logger: Logger },
): Promise<void> {
  const limits = options.limits ?? DEFAULT_STREAM_SETTINGS.events;
  let info;
  try {
    info = await jsm.streams.info(stream);
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    await explained(stream, limits, () =>
      jsm.streams.add({
        name: stream,
        subjects: [`${subjectPrefix}.>`],
        retention: RetentionPolicy.Limits,
        ...streamLimitsConfig(limits),
        // JetStream wants it no longer than the maximum age.
        duplicate_window: nanos(limits.maxAgeMs > 0 ? Math.min(DUPLICATE_WINDOW_MS, limits.maxAgeMs) : DUPLICATE_WINDOW_MS),
      }),
    );
    return;
  }
  await updateStreamLimits(jsm, info, limits, options.logger);
}

/**
 * One JetStream consumer per durable name and type pattern: NATS 2.9 allows a single filter subject per
 * consumer. Wildcards become upper-case words, which event types (lower case) can never produce.
 */
export function durableConsumerName(durable: string, pattern: string): string {
  const slug = pattern
    .split('.')
    .map((token) => (token === '*' ? 'ANY' : token === '>' ? 'ALL' : token))
    .join('-');
  return `${durable}__${slug}`;
}

/**
 * Creates the durable pull consumer, or brings an existing one up to date. JetStream's own redelivery limit is off
 * (-1): past it, JetStream would stop delivering an event without telling anyone, where the bus moves it to the dead
 * letters after the retry policy's last delivery (nats-event-bus.ts).
 */
export async function ensureDurableConsumer(jsm: JetStreamManager, stream: string, consumer: { name: string; filterSubject: string }): Promise<void> {
  try {
    await jsm.consumers.update(stream, consumer.name, { max_deliver: UNLIMITED });
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    // A new consumer starts at the oldest event kept, so a service deployed later still builds its projections.
    await jsm.consumers.add(stream, {
      durable_name: consumer.name,
      filter_subject: consumer.filterSubject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: UNLIMITED,
    });
  }
}

/**
 * Deletes the durable's JetStream consumers of type patterns it no longer takes (a pattern dropped from the code, as
 * when a consumer moves to another event): left, such a consumer would hold its place in the stream for ever and
 * count every later event of its pattern as pending. Answers the names deleted. Another durable's consumers are never
 * touched, even one whose name begins with this one's: a pattern's part of the name never holds "__".
 */
export async function retireDroppedConsumers(jsm: JetStreamManager, stream: string, durable: string, current: readonly string[]): Promise<string[]> {
  const prefix = `${durable}__`;
  const retired: string[] = [];
  for await (const { name } of jsm.consumers.list(stream)) {
    if (!name.startsWith(prefix) || name.slice(prefix.length).includes('__') || current.includes(name)) continue;
    try {
      await jsm.consumers.delete(stream, name);
      retired.push(name);
    } catch (error) {
      // Another replica, starting at the same time, deleted it first.
      if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    }
  }
  return retired;
}

const UNLIMITED = -1;
