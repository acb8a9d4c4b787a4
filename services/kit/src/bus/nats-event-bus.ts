import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import type { EventBus, EventHandler, Subscription } from './event-bus.js';
import { assertDurableName } from './durable-name.js';
import { assertEventTypePattern } from './event-pattern.js';
import { durableConsumerName, ensureDurableConsumer, ensureStream } from './nats-jetstream-setup.js';
import { backoffDelayMs, defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import { handleInEventContext } from './trace-context.js';

export interface NatsEventBusOptions {
  servers: string | string[];
  /** JetStream stream holding the events; created if missing. */
  stream?: string;
  /** Events are published to `${subjectPrefix}.${type}`. */
  subjectPrefix?: string;
  logger: Logger;
  retry?: Partial<RetryPolicy>;
  /** How long a publish waits for JetStream's acknowledgement before failing (the outbox then retries). */
  publishTimeoutMs?: number;
  /** Pause between reconnection attempts; the client never stops trying. */
  reconnectTimeWaitMs?: number;
}

/**
 * Messages a subscription pulls ahead of its handler. Small, so that the instances sharing a durable name
 * share the work and a buffered event does not outwait its acknowledgement deadline.
 */
const PULL_BATCH = 16;

/** The event bus over NATS JetStream: events persist in a stream, durable consumers survive restarts. */
export async function createNatsEventBus(options: NatsEventBusOptions): Promise<EventBus> {
  const { servers, stream = 'SNAPCRACKS', subjectPrefix = 'snapcracks.events', logger } = options;
  const retry: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;

  logger.info({ servers, stream }, 'connecting to NATS');
  const nc = await connect({
    servers,
    maxReconnectAttempts: -1,
    waitOnFirstConnect: true,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 2_000,
  });
  void logConnectionStatus(nc, logger);
  const jsm = await jetstreamManager(nc, { timeout: publishTimeoutMs });
  await ensureStream(jsm, stream, subjectPrefix);
  const js = jsm.jetstream();
  const subscriptions = new Set<Subscription>();
  const subjectOf = (pattern: string) => `${subjectPrefix}.${pattern}`;

  async function subscribeDurable(handler: EventHandler, durable: string, pattern: string): Promise<Subscription> {
    const name = durableConsumerName(durable, pattern);
    await ensureDurableConsumer(jsm, stream, { name, filterSubject: subjectOf(pattern), maxDeliveries: retry.maxDeliveries });
    const consumer = await js.consumers.get(stream, name);
    const messages = await consumer.consume({ max_messages: PULL_BATCH });
    return runConsumer(messages, name, logger, async (msg, stopping) => {
      // Handing an unstarted message back at once lets another instance take it without waiting for a timeout.
      if (stopping) return msg.nak();
      await handleDurableDelivery(msg, handler, retry, logger);
    });
  }

  async function subscribeBroadcast(handler: EventHandler, pattern: string): Promise<Subscription> {
    // Start after the stream's last message explicitly rather than with DeliverPolicy.New: an ordered consumer
    // that is recreated (after a disconnect) before its first message would otherwise replay the whole stream.
    const { state } = await jsm.streams.info(stream);
    const consumer = await js.consumers.get(stream, { filter_subjects: subjectOf(pattern), opt_start_seq: state.last_seq + 1 });
    const messages = await consumer.consume({ max_messages: PULL_BATCH });
    const stopped = new AbortController();
    const subscription = runConsumer(messages, `broadcast ${pattern}`, logger, async (msg, stopping) => {
      if (stopping) return;
      const event = decodeDelivered(msg, logger);
      if (event) await handleWithRetriesInPlace(event, handler, retry, logger, stopped.signal);
    });
    return {
      async close() {
        stopped.abort();
        await subscription.close();
      },
    };
  }

  return {
    async publish(event) {
      const ack = await js.publish(subjectOf(event.type), Envelope.encode(event).finish(), {
        msgID: event.id,
        timeout: publishTimeoutMs,
      });
      if (ack.duplicate) logger.debug({ eventId: event.id, type: event.type }, 'event already in the stream');
    },

    async subscribe(handler, { durable, types }) {
      if (durable !== undefined) assertDurableName(durable);
      types.forEach(assertEventTypePattern);
      // One consumer per type pattern: NATS 2.9 consumers take a single filter subject.
      const parts = await Promise.all(
        types.map((pattern) => (durable === undefined ? subscribeBroadcast(handler, pattern) : subscribeDurable(handler, durable, pattern))),
      );
      const subscription: Subscription = {
        async close() {
          subscriptions.delete(subscription);
          await Promise.all(parts.map((part) => part.close()));
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await nc.drain();
    },
  };
}

/** Feeds each pulled message to `handle`, one at a time; `close` stops pulling and waits for the current one. */
function runConsumer(
  messages: ConsumerMessages,
  name: string,
  logger: Logger,
  handle: (msg: JsMsg, stopping: boolean) => Promise<void>,
): Subscription {
  let stopping = false;
  const loop = (async () => {
    for await (const msg of messages) await handle(msg, stopping);
  })().catch((error: unknown) => logger.error({ err: error, consumer: name }, 'event consumer stopped'));
  void logConsumerTrouble(messages, name, logger);
  return {
    async close() {
      stopping = true;
      await messages.close();
      await loop;
    },
  };
}

function decodeDelivered(msg: JsMsg, logger: Logger): Envelope | undefined {
  try {
    return Envelope.decode(msg.data);
  } catch (error) {
    logger.error({ err: error, subject: msg.subject, seq: msg.seq }, 'undecodable event dropped');
    return undefined;
  }
}

/** Acknowledges after the handler resolves; after a failure asks JetStream to redeliver later, up to the limit. */
async function handleDurableDelivery(msg: JsMsg, handler: EventHandler, retry: RetryPolicy, logger: Logger): Promise<void> {
  const event = decodeDelivered(msg, logger);
  if (!event) return msg.term();
  try {
    await handleInEventContext(event, handler);
    msg.ack();
  } catch (error) {
    const deliveries = msg.info.deliveryCount;
    const log = { err: error, eventId: event.id, type: event.type, deliveries };
    if (deliveries >= retry.maxDeliveries) {
      logger.error(log, 'event handler failed on every delivery; event dropped');
      return msg.term();
    }
    const delayMs = backoffDelayMs(deliveries, retry);
    logger.warn({ ...log, retryInMs: delayMs }, 'event handler failed; will redeliver');
    msg.nak(delayMs);
  }
}

/** Broadcast (ordered) consumers cannot be asked to redeliver, so a failed handler is retried where it stands. */
async function handleWithRetriesInPlace(
  event: Envelope,
  handler: EventHandler,
  retry: RetryPolicy,
  logger: Logger,
  stopped: AbortSignal,
): Promise<void> {
  for (let deliveries = 1; !stopped.aborted; deliveries++) {
    try {
      return await handleInEventContext(event, handler);
    } catch (error) {
      const log = { err: error, eventId: event.id, type: event.type, deliveries };
      if (deliveries >= retry.maxDeliveries) {
        logger.error(log, 'event handler failed on every delivery; event dropped');
        return;
      }
      const delayMs = backoffDelayMs(deliveries, retry);
      logger.warn({ ...log, retryInMs: delayMs }, 'event handler failed; will retry');
      await sleep(delayMs, undefined, { signal: stopped }).catch(() => undefined);
    }
  }
}

async function logConnectionStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') logger.warn({ server: status.server }, 'NATS connection lost; reconnecting');
    else if (status.type === 'reconnect') logger.info({ server: status.server }, 'NATS connection restored');
    else if (status.type === 'error') logger.error({ err: status.error }, 'NATS error');
  }
}

/** Problems a consumer recovers from by itself but that an operator should see. */
async function logConsumerTrouble(messages: ConsumerMessages, name: string, logger: Logger): Promise<void> {
  for await (const notification of messages.status()) {
    if (notification.type === 'consumer_not_found' || notification.type === 'stream_not_found' || notification.type === 'consumer_deleted') {
      logger.warn({ consumer: name, notification: notification.type }, 'event consumer cannot reach its JetStream consumer');
    }
  }
}
