import { setTimeout as sleep } from 'node:timers/promises';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import type { EventBus, EventHandler, Subscription } from './event-bus.js';
import { assertDurableName } from './durable-name.js';
import { assertEventTypePattern } from './event-pattern.js';
import { durableConsumerName, ensureDurableConsumer, ensureStream, retireDroppedConsumers } from './nats-jetstream-setup.js';
import { errorLine } from './dead-letters.js';
import { ensureDeadLetterStream, natsDeadLetterQueue, type NatsDeadLetterQueue } from './nats-dead-letters.js';
import { backoffDelayMs, defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import { handleInEventContext } from './trace-context.js';
import { decodeEvents, type EncodedEvents } from './event-messages.js';
import { eventSignatures, SIGNATURE_HEADER, type EventSignatures, type RefusalReason, type SigningKeys } from './event-signatures.js';
import { forEachAtMost } from '../for-each-at-most.js';
import { consumerComponent, consumerRecorder, observeConsumerLag, type ConsumerRecorder, type DeliveryOutcome } from '../metrics/consumers.js';
import { DEFAULT_STREAM_SETTINGS, type StreamSettings } from './stream-settings.js';

export interface NatsEventBusOptions {
  servers: string | string[];
  /** JetStream stream holding the events; created if missing. */
  stream?: string;
  /** Events are published to `${subjectPrefix}.${type}`. */
  subjectPrefix?: string;
  logger: Logger;
  /**
   * The components' identity keys (the platform's IdentityKeyring): each message is signed with the private key of the
   * component that owns its type, which this process must hold to publish it, and a delivered message is handed to a
   * handler only with a valid signature by that owner (event-signatures.ts).
   */
  identity: SigningKeys;
  retry?: Partial<RetryPolicy>;
  /** How long a publish waits for JetStream's acknowledgement before failing (the outbox then retries). */
  publishTimeoutMs?: number;
  /** Pause between reconnection attempts; the client never stops trying. */
  reconnectTimeWaitMs?: number;
  /** Replicas, storage and maximum age of the events and dead-letter streams (natsStreamSettings); defaults otherwise. */
  streams?: StreamSettings;
}

/**
 * Messages a subscription pulls ahead of its handler (at least its concurrency). Small, so that the instances
 * sharing a durable name share the work and a buffered event does not outwait its acknowledgement deadline.
 */
const PULL_BATCH = 16;

/** The name a dead letter gives for a subscription without a durable name. */
const EPHEMERAL = 'ephemeral';

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
    // Otherwise every publish (a request for JetStream's ack) captures a stack trace up front, in case it fails: a few
    // percent of the CPU of a vote. A failed publish is logged by the relay with the event it was publishing.
    noAsyncTraces: true,
  });
  void logConnectionStatus(nc, logger);
  const jsm = await jetstreamManager(nc, { timeout: publishTimeoutMs });
  const streams = options.streams ?? DEFAULT_STREAM_SETTINGS;
  await ensureStream(jsm, stream, subjectPrefix, { limits: streams.events, logger });
  await ensureDeadLetterStream(jsm, stream, subjectPrefix, { limits: { ...streams.deadLetters, storage: streams.events.storage }, logger });
  const signatures = eventSignatures(options.identity);
  const deadLetters = natsDeadLetterQueue(jsm, { stream, subjectPrefix, logger, publishTimeoutMs, signatures });
  const js = jsm.jetstream();
  const subscriptions = new Set<Subscription>();
  const subjectOf = (pattern: string) => `${subjectPrefix}.${pattern}`;
  const receive = (msg: JsMsg) => receiveMessage(msg, msg.subject.slice(subjectPrefix.length + 1), signatures);

  async function subscribeDurable(handler: EventHandler, durable: string, pattern: string, concurrency: number, metrics: ConsumerRecorder): Promise<Subscription> {
    const name = durableConsumerName(durable, pattern);
    await ensureDurableConsumer(jsm, stream, { name, filterSubject: subjectOf(pattern) });
    const consumer = await js.consumers.get(stream, name);
    const messages = await consumer.consume({ max_messages: Math.max(PULL_BATCH, concurrency) });
    return runConsumer(messages, name, logger, concurrency, receive, async (delivered, stopping) => {
      // Handing an unstarted message back at once lets another instance take it without waiting for a timeout.
      if (stopping) return delivered.msg.nak();
      await handleDurableDelivery(delivered, handler, { consumer: durable, retry, logger, deadLetters, concurrency, metrics });
    });
  }

  async function subscribeBroadcast(handler: EventHandler, pattern: string, concurrency: number, metrics: ConsumerRecorder): Promise<Subscription> {
    // Start after the stream's last message explicitly rather than with DeliverPolicy.New: an ordered consumer
    // that is recreated (after a disconnect) before its first message would otherwise replay the whole stream.
    const { state } = await jsm.streams.info(stream);
    const consumer = await js.consumers.get(stream, { filter_subjects: subjectOf(pattern), opt_start_seq: state.last_seq + 1 });
    const messages = await consumer.consume({ max_messages: PULL_BATCH });
    const stopped = new AbortController();
    const subscription = runConsumer(messages, `broadcast ${pattern}`, logger, concurrency, receive, async (delivered, stopping) => {
      if (stopping) return;
      await handleWithRetriesInPlace(delivered, handler, { retry, logger, deadLetters, concurrency, metrics }, stopped.signal);
    });
    return {
      async close() {
        stopped.abort();
        await subscription.close();
      },
    };
  }

  async function publishEncoded({ id, type, data }: EncodedEvents): Promise<void> {
    // Once per message: a batch of events costs one signature.
    const signed = headers();
    signed.set(SIGNATURE_HEADER, signatures.sign(type, data));
    const ack = await js.publish(subjectOf(type), data, { msgID: id, timeout: publishTimeoutMs, headers: signed });
    if (ack.duplicate) logger.debug({ eventId: id, type }, 'event already in the stream');
  }

  return {
    publish: (event) => publishEncoded({ id: event.id, type: event.type, data: Envelope.encode(event).finish() }),
    publishEncoded,

    deadLetters,

    async subscribe(handler, { durable, types, concurrency = 1, component }) {
      if (durable !== undefined) assertDurableName(durable);
      types.forEach(assertEventTypePattern);
      const owner = consumerComponent(component, durable);
      const metrics = consumerRecorder(owner, durable ?? EPHEMERAL);
      // One consumer per type pattern: NATS 2.9 consumers take a single filter subject.
      const parts = await Promise.all(
        types.map((pattern) =>
          durable === undefined ? subscribeBroadcast(handler, pattern, concurrency, metrics) : subscribeDurable(handler, durable, pattern, concurrency, metrics),
        ),
      );
      if (durable !== undefined) {
        const retired = await retireDroppedConsumers(jsm, stream, durable, types.map((pattern) => durableConsumerName(durable, pattern)));
        if (retired.length > 0) logger.info({ durable, retired }, 'deleted the consumers of types this durable no longer takes');
      }
      // The durable's lag: what its JetStream consumers (one per pattern) have not delivered yet.
      const unobserveLag =
        durable === undefined
          ? () => undefined
          : observeConsumerLag(owner, durable, async () => {
              const infos = await Promise.all(types.map((pattern) => jsm.consumers.info(stream, durableConsumerName(durable, pattern))));
              return infos.reduce((sum, info) => sum + info.num_pending, 0);
            });
      const subscription: Subscription = {
        async close() {
          unobserveLag();
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

/** A pulled message with its events, or why they could not be read, or why it is refused. */
interface Delivered {
  msg: JsMsg;
  events?: Envelope[];
  decodeError?: unknown;
  /** Not from the owner of its type: never handled, never stored as a dead letter. */
  refused?: { reason: RefusalReason; signer?: string | undefined };
}

/**
 * Checks a message before anything reads it: signed by the owner of its subject's type, and, once decoded, holding
 * only events of that type (a genuine signature over a batch smuggling another type is refused too). Signed bytes
 * that do not decode are the owner's own bug: they go to the dead letters, as before.
 */
function receiveMessage(msg: JsMsg, type: string, signatures: EventSignatures): Delivered {
  const header = msg.headers?.get(SIGNATURE_HEADER);
  const refused = signatures.check(type, msg.data, header);
  if (refused) return { msg, refused };
  let events: Envelope[];
  try {
    events = decodeEvents(msg.data);
  } catch (decodeError) {
    return { msg, decodeError };
  }
  if (events.some((event) => event.type !== type)) return { msg, refused: { reason: 'foreign_type', signer: header?.split('.', 1)[0] } };
  return { msg, events };
}

/** Logs and counts a refused message (its subject, claimed signer and reason; never its payload). */
function logRefusal({ msg, refused }: Delivered, consumer: string, logger: Logger, metrics: ConsumerRecorder): void {
  if (!refused) return;
  metrics.refused(refused.reason);
  logger.warn(
    { consumer, subject: msg.subject, seq: msg.seq, claimedSigner: refused.signer ?? null, reason: refused.reason },
    'event refused: not signed by the component that owns its type',
  );
}

/**
 * Feeds each pulled message to `handle`, with at most `concurrency` events being handled at once (a batch counts as
 * its events, and is never held back when nothing else is in flight); `close` stops pulling and waits for those being
 * handled. A message whose handling throws (acknowledging on a lost connection) is logged; JetStream redelivers it.
 */
function runConsumer(
  messages: ConsumerMessages,
  name: string,
  logger: Logger,
  concurrency: number,
  receive: (msg: JsMsg) => Delivered,
  handle: (delivered: Delivered, stopping: boolean) => Promise<void>,
): Subscription {
  let stopping = false;
  const inFlight = new Set<Promise<void>>();
  let inFlightEvents = 0;
  const loop = (async () => {
    for await (const msg of messages) {
      const delivered = receive(msg);
      const weight = delivered.events?.length || 1;
      const handling: Promise<void> = handle(delivered, stopping)
        .catch((error: unknown) => logger.error({ err: error, consumer: name, seq: msg.seq }, 'event consumer failed on a message'))
        .finally(() => {
          inFlight.delete(handling);
          inFlightEvents -= weight;
        });
      inFlight.add(handling);
      inFlightEvents += weight;
      while (inFlightEvents >= concurrency && inFlight.size > 0) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
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

/**
 * Hands each event to the handler in its own consumer span, in their order and at most `concurrency` at once (a
 * batch's events one after the other for a handler that takes one at a time); answers those that failed.
 */
async function handleEach(events: Envelope[], handler: EventHandler, concurrency: number): Promise<{ event: Envelope; error: unknown }[]> {
  const failed: { event: Envelope; error: unknown }[] = [];
  await forEachAtMost(events, concurrency, async (event) => {
    await handleInEventContext(event, handler).catch((error: unknown) => void failed.push({ event, error }));
  });
  return failed;
}

interface Delivery {
  /** The durable name (or "ephemeral"), as dead letters name it. */
  consumer?: string;
  retry: RetryPolicy;
  logger: Logger;
  deadLetters: NatsDeadLetterQueue;
  /** Events of one message handed to the handler at once. */
  concurrency: number;
  metrics: ConsumerRecorder;
}

/**
 * Acknowledges once the handler resolved for every event of the message; when any failed, asks JetStream to redeliver
 * the message later (events already handled skip themselves: consumers record what they handled), and after the last
 * delivery the retry policy allows moves each event that still fails to the dead letters, on its own. JetStream's own
 * limit is off (see ensureDurableConsumer): a delivery beyond ours comes only after one that never answered (its
 * process stopped, or it outlived the acknowledgement deadline) or a dead letter that could not be stored, and its
 * events go to the dead letters without another try, so an event that kills its consumer cannot do so forever.
 */
async function handleDurableDelivery(delivered: Delivered, handler: EventHandler, delivery: Delivery): Promise<void> {
  const { msg, events, decodeError } = delivered;
  const { retry, logger, metrics } = delivery;
  if (delivered.refused) {
    logRefusal(delivered, delivery.consumer ?? EPHEMERAL, logger, metrics);
    // Terminated: JetStream never delivers it again, to this consumer or another instance of it. (No reason given:
    // NATS before 2.10 does not read `+TERM <reason>` as a termination, and redelivers.)
    return msg.term();
  }
  const deliveries = msg.info.deliveryCount;
  if (deliveries > 1) metrics.redelivered();
  if (!events) return giveUp(msg, [{ error: decodeError }], deliveries, delivery);
  if (deliveries > retry.maxDeliveries) {
    const error = new Error(`No answer from the handler after ${deliveries - 1} deliveries`);
    return giveUp(msg, events.map((event) => ({ event, error })), deliveries, delivery);
  }
  const failed = await handleEach(events, handler, delivery.concurrency);
  if (failed.length === 0) {
    metrics.delivered('ok');
    return msg.ack();
  }
  if (deliveries >= retry.maxDeliveries) {
    return giveUp(msg, failed, deliveries, delivery);
  }
  const delayMs = backoffDelayMs(deliveries, retry);
  const { event, error } = failed[0]!;
  logger.warn(
    { err: error, eventId: event.id, type: event.type, failed: failed.length, events: events.length, deliveries, retryInMs: delayMs },
    'event handler failed; will redeliver',
  );
  metrics.delivered('retry');
  msg.nak(delayMs);
}

/**
 * Stores each given-up event (or the undecodable message) as a dead letter, then tells JetStream to stop delivering
 * the message; if one cannot be stored, redelivers the message later (storing one twice keeps one dead letter). Each
 * keeps the message as signed (a batch whole), so that a replay still verifies.
 */
async function giveUp(
  msg: JsMsg,
  letters: { event?: Envelope; error: unknown }[],
  deliveries: number,
  { consumer = EPHEMERAL, retry, logger, deadLetters, metrics }: Delivery,
): Promise<void> {
  let stored = 0;
  try {
    for (const { event, error } of letters) {
      await deadLetters.add({ consumer, subject: msg.subject, streamSeq: msg.seq, data: msg.data, signature: signatureOf(msg), event, deliveries, error });
      stored += 1;
    }
    metrics.deadLetters(stored);
    metrics.delivered('dead');
    msg.term();
  } catch (storeError) {
    // Letters stored before the failure are stored again (as one each) at the next delivery: count them then.
    metrics.delivered('retry');
    const retryInMs = backoffDelayMs(deliveries, retry);
    logger.warn({ err: storeError, consumer, seq: msg.seq, deliveries, cause: errorLine(letters[0]?.error), retryInMs }, 'could not store a dead letter; will redeliver');
    msg.nak(retryInMs);
  }
}

/**
 * Broadcast (ordered) consumers cannot be asked to redeliver, so a failed handler is retried where it stands, and an
 * event still failing after the last try becomes a dead letter (logged, should even that fail). A batch's events are
 * handled one after the other, each with its own tries.
 */
async function handleWithRetriesInPlace(delivered: Delivered, handler: EventHandler, delivery: Delivery, stopped: AbortSignal): Promise<void> {
  const { msg, events, decodeError } = delivered;
  const { retry, logger, deadLetters, metrics } = delivery;
  // An ordered consumer acknowledges nothing: a refused message is simply not handled.
  if (delivered.refused) return logRefusal(delivered, EPHEMERAL, logger, metrics);
  const deadLetter = (event: Envelope | undefined, deliveries: number, error: unknown) =>
    deadLetters
      .add({ consumer: EPHEMERAL, subject: msg.subject, streamSeq: msg.seq, data: msg.data, signature: signatureOf(msg), event, deliveries, error })
      .then(() => metrics.deadLetters(1))
      .catch((storeError: unknown) => logger.error({ err: storeError, seq: msg.seq, cause: errorLine(error) }, 'could not store a dead letter; event dropped'));
  if (!events) {
    metrics.delivered('dead');
    return deadLetter(undefined, 1, decodeError);
  }
  let outcome: DeliveryOutcome = 'ok';
  for (const event of events) {
    for (let deliveries = 1; !stopped.aborted; deliveries++) {
      try {
        await handleInEventContext(event, handler);
        break;
      } catch (error) {
        if (deliveries >= retry.maxDeliveries) {
          outcome = 'dead';
          await deadLetter(event, deliveries, error);
          break;
        }
        const delayMs = backoffDelayMs(deliveries, retry);
        logger.warn({ err: error, eventId: event.id, type: event.type, deliveries, retryInMs: delayMs }, 'event handler failed; will retry');
        // Tried again where it stands: each try counts as a delivery, as a durable consumer's redelivery would.
        metrics.delivered('retry');
        metrics.redelivered();
        await sleep(delayMs, undefined, { signal: stopped }).catch(() => undefined);
      }
    }
  }
  if (!stopped.aborted) metrics.delivered(outcome);
}

/** The signature a delivered message came with (checked by then). */
function signatureOf(msg: JsMsg): string {
  return msg.headers?.get(SIGNATURE_HEADER) ?? '';
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
