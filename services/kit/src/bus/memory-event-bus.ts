import type { Envelope } from '@snapcracks/proto/events/v1';
import { createLogger, type Logger } from '../logger.js';
import type { EventBus, EventHandler, SubscribeOptions, Subscription } from './event-bus.js';
import { assertDurableName } from './durable-name.js';
import { assertEventTypePattern, matchesEventType } from './event-pattern.js';
import { backoffDelayMs, defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
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
}

interface Member {
  handler: EventHandler;
  inFlight?: Promise<void>;
}

/**
 * The events of one type pattern waiting for one durable name (or for one ephemeral subscription), handed to
 * its members one at a time each, round robin, like the pull consumer a NATS subscription creates.
 */
class DeliveryGroup {
  private readonly queue: Delivery[] = [];
  private readonly members: Member[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private nextMember = 0;
  private dispatchScheduled = false;

  constructor(
    readonly pattern: string,
    private readonly retry: RetryPolicy,
    private readonly logger: Logger,
  ) {}

  enqueue(event: Envelope): void {
    this.queue.push({ event, failures: 0 });
    this.scheduleDispatch();
  }

  join(handler: EventHandler): Member {
    const member: Member = { handler };
    this.members.push(member);
    this.scheduleDispatch();
    return member;
  }

  /** Stops giving `member` events and waits for the one it is handling; its queue stays for later members. */
  async leave(member: Member): Promise<void> {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
    await member.inFlight;
  }

  /** Drops pending retries and waits for the handlers still running. */
  async close(): Promise<void> {
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.queue.length = 0;
    await Promise.all(this.members.map((member) => member.inFlight));
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
    for (let member = this.idleMember(); member && this.queue.length > 0; member = this.idleMember()) {
      const delivery = this.queue.shift()!;
      member.inFlight = this.deliver(member, delivery).finally(() => {
        member.inFlight = undefined;
        this.scheduleDispatch();
      });
    }
  }

  private idleMember(): Member | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const index = (this.nextMember + i) % this.members.length;
      const member = this.members[index]!;
      if (!member.inFlight) {
        this.nextMember = index + 1;
        return member;
      }
    }
    return undefined;
  }

  private async deliver(member: Member, delivery: Delivery): Promise<void> {
    try {
      await handleInEventContext(delivery.event, member.handler);
    } catch (error) {
      delivery.failures += 1;
      const log = { err: error, eventId: delivery.event.id, type: delivery.event.type, deliveries: delivery.failures };
      if (delivery.failures >= this.retry.maxDeliveries) {
        this.logger.error(log, 'event handler failed on every delivery; event dropped');
        return;
      }
      const delayMs = backoffDelayMs(delivery.failures, this.retry);
      this.logger.warn({ ...log, retryInMs: delayMs }, 'event handler failed; will redeliver');
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.queue.unshift(delivery);
        this.dispatch();
      }, delayMs);
      this.retryTimers.add(timer);
    }
  }
}

/**
 * The event bus inside one process (the all-in-one default), with the semantics of the NATS one: durable
 * names share work and keep events while no instance listens, failed handlers are retried with backoff,
 * repeated ids are dropped, ephemeral subscriptions see only what is published after they subscribe.
 */
export function createMemoryEventBus(options: MemoryEventBusOptions = {}): EventBus {
  const logger = options.logger ?? createLogger('memory-event-bus');
  const retry = { ...defaultRetryPolicy, ...options.retry };
  const historyMs = options.historyMs ?? 10 * 60_000;
  /** Recently published events by id, oldest first. */
  const history = new Map<string, { event: Envelope; publishedAt: number }>();
  const durableGroups = new Map<string, DeliveryGroup>();
  const ephemeralGroups = new Set<DeliveryGroup>();
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
      group = new DeliveryGroup(pattern, retry, logger);
      for (const { event } of history.values()) if (matchesEventType(pattern, event.type)) group.enqueue(event);
      durableGroups.set(key, group);
    }
    return group;
  }

  function ephemeralGroup(pattern: string): DeliveryGroup {
    const group = new DeliveryGroup(pattern, retry, logger);
    ephemeralGroups.add(group);
    return group;
  }

  return {
    async publish(event) {
      if (closed) throw new Error('The event bus is closed');
      const now = Date.now();
      forgetOldEvents(now);
      if (history.has(event.id)) return;
      history.set(event.id, { event, publishedAt: now });
      for (const group of [...durableGroups.values(), ...ephemeralGroups]) {
        if (matchesEventType(group.pattern, event.type)) group.enqueue(event);
      }
    },

    async subscribe(handler: EventHandler, { durable, types }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('The event bus is closed');
      if (durable !== undefined) assertDurableName(durable);
      types.forEach(assertEventTypePattern);
      const groups = types.map((pattern) => (durable === undefined ? ephemeralGroup(pattern) : durableGroup(durable, pattern)));
      const members = groups.map((group) => group.join(handler));
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
