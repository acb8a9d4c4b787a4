import { Envelope } from '@snapcracks/proto/events/v1';
import { createLogger, type Logger } from '../logger.js';
import { decodeEvents } from './event-messages.js';
import { errorLine, logDeadLetter, type DeadLetter, type DeadLetterQueue } from './dead-letters.js';
import type { EventBus, EventHandler, SubscribeOptions, Subscription } from './event-bus.js';
import { assertDurableName } from './durable-name.js';
import { assertEventTypePattern, matchesEventType } from './event-pattern.js';
import { backoffDelayMs, defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import { consumerComponent, consumerRecorder, type ConsumerRecorder } from '../metrics/consumers.js';
import { handleInEventContext } from './trace-context.js';

export interface MemoryEventBusOptions {
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /**
   * How long published events are remembered: a repeated id within it is dropped (as JetStream's duplicate
   * window does), and a durable name subscribing for the first time receives the events of this period (as a
   * new JetStream durable consumer receives the stream), so start-up order between services loses nothing.
   */
  historyMs?: number;
}

interface Delivery {
  event: Envelope;
  /** Failed deliveries so far. */
  failures: number;
  /** Settles the publisher's wait: handled (or given up on), or the bus closed first. */
  done(error?: Error): void;
}

interface Member {
  handler: EventHandler;
  /** Events it may handle at once (SubscribeOptions.concurrency). */
  concurrency: number;
  inFlight: Set<Promise<void>>;
}

/**
 * The dead letters of the process: kept in memory (nothing in process outlives it), each with the group that gave up,
 * so a replay goes back to that consumer only. The outbox row of such an event counts as published.
 */
class MemoryDeadLetters implements DeadLetterQueue {
  private readonly letters = new Map<number, { letter: DeadLetter; group: DeliveryGroup }>();
  private nextSeq = 1;

  constructor(private readonly logger: Logger) {}

  add(group: DeliveryGroup, event: Envelope, deliveries: number, error: unknown): void {
    const letter: DeadLetter = {
      seq: this.nextSeq++,
      consumer: group.consumer,
      eventId: event.id,
      type: event.type,
      deliveries,
      error: errorLine(error),
      failedAt: new Date(),
      data: Envelope.encode(event).finish(),
    };
    this.letters.set(letter.seq, { letter, group });
    logDeadLetter(this.logger, letter, error, 'in process');
  }

  async list({ consumer, limit = 1_000 }: { consumer?: string; limit?: number } = {}): Promise<DeadLetter[]> {
    return [...this.letters.values()].map((entry) => entry.letter).filter((letter) => !consumer || letter.consumer === consumer).slice(0, limit);
  }

  /** Resolves once the consumer handled it, or gave up on it again (a new dead letter then). */
  async replay(seq: number): Promise<void> {
    // A closed ephemeral subscription would never take it (a durable name keeps its queue for its next subscriber).
    if (this.letters.get(seq)?.group.closed) throw new Error(`Dead letter ${seq}: the subscription that gave up on it is closed`);
    const { letter, group } = this.take(seq);
    this.logger.info({ deadLetter: seq, consumer: letter.consumer, eventId: letter.eventId, type: letter.type }, 'dead letter replayed');
    await group.enqueue(Envelope.decode(letter.data));
  }

  async discard(seq: number): Promise<void> {
    const { letter } = this.take(seq);
    this.logger.info({ deadLetter: seq, consumer: letter.consumer, eventId: letter.eventId, type: letter.type }, 'dead letter discarded');
  }

  private take(seq: number): { letter: DeadLetter; group: DeliveryGroup } {
    const entry = this.letters.get(seq);
    if (!entry) throw new Error(`No dead letter ${seq}`);
    this.letters.delete(seq);
    return entry;
  }
}

/**
 * The events of one type pattern waiting for one durable name (or for one ephemeral subscription), handed to
 * its members round robin, each up to its concurrency at once (one by default), like the pull consumer a NATS
 * subscription creates. An event that fails on every delivery becomes a dead letter.
 */
class DeliveryGroup {
  private readonly queue: Delivery[] = [];
  private readonly members: Member[] = [];
  private readonly retryTimers = new Map<NodeJS.Timeout, Delivery>();
  private nextMember = 0;
  private dispatchScheduled = false;
  closed = false;
  private readonly metrics: ConsumerRecorder;

  constructor(
    readonly pattern: string,
    /** The durable name, or "ephemeral": who gives up on an event, in its dead letter. */
    readonly consumer: string,
    private readonly retry: RetryPolicy,
    private readonly logger: Logger,
    private readonly deadLetters: MemoryDeadLetters,
  ) {
    this.metrics = consumerRecorder(consumerComponent(undefined, consumer === 'ephemeral' ? undefined : consumer), consumer);
  }

  /** Resolves once a member has handled the event, or once it was given up on after the last delivery (a dead letter). */
  enqueue(event: Envelope): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, failures: 0, done: (error) => (error ? reject(error) : resolve()) });
      this.scheduleDispatch();
    });
  }

  join(handler: EventHandler, concurrency = 1): Member {
    const member: Member = { handler, concurrency: Math.max(1, concurrency), inFlight: new Set() };
    this.members.push(member);
    this.scheduleDispatch();
    return member;
  }

  /** Stops giving `member` events and waits for those it is handling; its queue stays for later members. */
  async leave(member: Member): Promise<void> {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
    await Promise.all(member.inFlight);
  }

  /** Drops pending retries and waits for the handlers still running; what was not handled stays unpublished in its outbox. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers.keys()) clearTimeout(timer);
    for (const delivery of this.retryTimers.values()) delivery.done(new Error('The event bus closed before the event was handled'));
    this.retryTimers.clear();
    for (const delivery of this.queue.splice(0)) delivery.done(new Error('The event bus closed before the event was handled'));
    await Promise.all(this.members.flatMap((member) => [...member.inFlight]));
  }

  // Deliveries always start from a fresh macrotask, never inside the publisher's call stack.
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    // The queue is checked first: asking for an idle member moves the round robin on.
    while (this.queue.length > 0) {
      const member = this.idleMember();
      if (!member) return;
      const delivery = this.queue.shift()!;
      const handling: Promise<void> = this.deliver(member, delivery).finally(() => {
        member.inFlight.delete(handling);
        this.scheduleDispatch();
      });
      member.inFlight.add(handling);
    }
  }

  private idleMember(): Member | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const index = (this.nextMember + i) % this.members.length;
      const member = this.members[index]!;
      if (member.inFlight.size < member.concurrency) {
        this.nextMember = index + 1;
        return member;
      }
    }
    return undefined;
  }

  private async deliver(member: Member, delivery: Delivery): Promise<void> {
    if (delivery.failures > 0) this.metrics.redelivered();
    try {
      await handleInEventContext(delivery.event, member.handler);
      this.metrics.delivered('ok');
      delivery.done();
    } catch (error) {
      delivery.failures += 1;
      const log = { err: error, eventId: delivery.event.id, type: delivery.event.type, deliveries: delivery.failures };
      if (delivery.failures >= this.retry.maxDeliveries) {
        this.deadLetters.add(this, delivery.event, delivery.failures, error);
        this.metrics.delivered('dead');
        this.metrics.deadLetters(1);
        delivery.done();
        return;
      }
      this.metrics.delivered('retry');
      const delayMs = backoffDelayMs(delivery.failures, this.retry);
      this.logger.warn({ ...log, retryInMs: delayMs }, 'event handler failed; will redeliver');
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.queue.unshift(delivery);
        this.dispatch();
      }, delayMs);
      this.retryTimers.set(timer, delivery);
    }
  }
}

/**
 * The event bus inside one process (the all-in-one default), with the semantics of the NATS one: durable
 * names share work and keep events while no instance listens, failed handlers are retried with backoff and then
 * kept as dead letters, repeated ids are dropped, ephemeral subscriptions see only what is published after they subscribe.
 * Unlike NATS it carries no signatures (event-signatures.ts): only code in this process can publish on it.
 */
export function createMemoryEventBus(options: MemoryEventBusOptions = {}): EventBus {
  const logger = options.logger ?? createLogger('memory-event-bus');
  const retry = { ...defaultRetryPolicy, ...options.retry };
  const historyMs = options.historyMs ?? 10 * 60_000;
  /** Recently published events by id, oldest first, with the publisher's wait for their durable deliveries. */
  const history = new Map<string, { event: Envelope; publishedAt: number; delivered: Promise<void> }>();
  const durableGroups = new Map<string, DeliveryGroup>();
  const ephemeralGroups = new Set<DeliveryGroup>();
  const deadLetters = new MemoryDeadLetters(logger);
  let closed = false;

  function forgetOldEvents(now: number): void {
    for (const [id, { publishedAt }] of history) {
      if (now - publishedAt < historyMs) break;
      history.delete(id);
    }
  }

  function durableGroup(durable: string, pattern: string): DeliveryGroup {
    const key = `${durable}\u0000${pattern}`;
    let group = durableGroups.get(key);
    if (!group) {
      group = new DeliveryGroup(pattern, durable, retry, logger, deadLetters);
      // Nobody waits for these: the publisher counted the subscribers there were when it published.
      for (const { event } of history.values()) if (matchesEventType(pattern, event.type)) group.enqueue(event).catch(() => undefined);
      durableGroups.set(key, group);
    }
    return group;
  }

  function ephemeralGroup(pattern: string): DeliveryGroup {
    const group = new DeliveryGroup(pattern, 'ephemeral', retry, logger, deadLetters);
    ephemeralGroups.add(group);
    return group;
  }

  async function publish(event: Envelope): Promise<void> {
    if (closed) throw new Error('The event bus is closed');
    const now = Date.now();
    forgetOldEvents(now);
    const known = history.get(event.id);
    if (known) return known.delivered;
    for (const group of ephemeralGroups) if (matchesEventType(group.pattern, event.type)) group.enqueue(event).catch(() => undefined);
    const durable = [...durableGroups.values()].filter((group) => matchesEventType(group.pattern, event.type));
    const delivered = Promise.all(durable.map((group) => group.enqueue(event))).then(() => undefined);
    history.set(event.id, { event, publishedAt: now, delivered });
    return delivered;
  }

  return {
    inProcess: true,
    deadLetters,
    publish,
    // In one process there is nothing to save by keeping a batch together: each event goes its own way.
    async publishEncoded(message) {
      await Promise.all(decodeEvents(message.data).map(publish));
    },

    async subscribe(handler: EventHandler, { durable, types, concurrency }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('The event bus is closed');
      if (durable !== undefined) assertDurableName(durable);
      types.forEach(assertEventTypePattern);
      const groups = types.map((pattern) => (durable === undefined ? ephemeralGroup(pattern) : durableGroup(durable, pattern)));
      const members = groups.map((group) => group.join(handler, concurrency));
      return {
        async close() {
          await Promise.all(groups.map((group, index) => group.leave(members[index]!)));
          if (durable === undefined) {
            for (const group of groups) {
              ephemeralGroups.delete(group);
              await group.close();
            }
          }
        },
      };
    },

    async close() {
      closed = true;
      await Promise.all([...durableGroups.values(), ...ephemeralGroups].map((group) => group.close()));
    },
  };
}
