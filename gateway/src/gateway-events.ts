import { matchesEventType, type EventBus, type EventHandler, type SubscribeOptions, type Subscription } from '@snapcracks/kit';
import type { Envelope } from '@snapcracks/proto/events/v1';

/** What the gateway's parts subscribe through: the bus's `subscribe`, broadcast only. */
export type EventSource = Pick<EventBus, 'subscribe'>;

interface Listener {
  patterns: string[];
  handler: EventHandler;
}

/**
 * One broadcast subscription for the whole gateway replica, handing each event to every part that listens for its
 * type (the public page cache, the personal feed, the user directory, notifications, data exports). Each part
 * subscribing on its own made a consumer per part and type on NATS, so every vote reached the replica twice and every
 * photo event three times, each delivery checked for its signature and decoded again.
 *
 * The types are fixed when it starts, before any part listens, so a part never misses an event between its
 * subscription and the load it starts next; a part asking for a type outside them is refused at once. An event a part
 * fails on is retried for that part alone (the bus retries the event; the parts that handled it are not called again).
 */
export class GatewayEvents implements EventSource {
  private readonly listeners = new Set<Listener>();
  /** The parts that have handled an event a retry is under way for. */
  private readonly handled = new Map<string, Set<Listener>>();
  private subscription: Subscription | undefined;

  private constructor(private readonly patterns: string[]) {}

  static async start(bus: EventBus, types: readonly string[]): Promise<GatewayEvents> {
    const events = new GatewayEvents(coveringPatterns(types));
    events.subscription = await bus.subscribe((event) => events.dispatch(event), { types: events.patterns });
    return events;
  }

  async subscribe(handler: EventHandler, { types, durable }: SubscribeOptions): Promise<Subscription> {
    if (durable !== undefined) throw new Error('GatewayEvents subscriptions are broadcast: a durable consumer subscribes on the bus');
    const missing = types.filter((type) => !this.patterns.some((pattern) => pattern === type || (!type.includes('*') && !type.includes('>') && matchesEventType(pattern, type))));
    if (missing.length > 0) throw new Error(`GatewayEvents was not started with ${missing.join(', ')}`);
    const listener = { patterns: types, handler };
    this.listeners.add(listener);
    return { close: async () => void this.listeners.delete(listener) };
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.listeners.clear();
  }

  private async dispatch(event: Envelope): Promise<void> {
    const done = this.handled.get(event.id) ?? new Set<Listener>();
    let failure: unknown;
    for (const listener of this.listeners) {
      if (done.has(listener) || !listener.patterns.some((pattern) => matchesEventType(pattern, event.type))) continue;
      try {
        await listener.handler(event);
        done.add(listener);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure === undefined) {
      this.handled.delete(event.id);
      return;
    }
    // Bounded: an event that keeps failing goes to the dead letters, and its entry is forgotten with the oldest.
    if (this.handled.size >= 1_000) this.handled.delete(this.handled.keys().next().value!);
    this.handled.set(event.id, done);
    throw failure;
  }
}

/** The patterns to subscribe to: each given once, less the types a wildcard among them already covers. */
export function coveringPatterns(types: readonly string[]): string[] {
  const unique = [...new Set(types)];
  const wildcards = unique.filter((type) => type.includes('*') || type.includes('>'));
  return unique.filter((type) => wildcards.includes(type) || !wildcards.some((pattern) => matchesEventType(pattern, type)));
}
