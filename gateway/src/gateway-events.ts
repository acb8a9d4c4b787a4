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
  /** The listeners of each type seen, worked out once per type (every vote's event would otherwise match patterns anew). */
  private readonly byType = new Map<string, Listener[]>();
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
    this.byType.clear();
    return {
      close: async () => {
        this.listeners.delete(listener);
        this.byType.clear();
      },
    };
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.listeners.clear();
    this.byType.clear();
  }

  private listenersOf(type: string): Listener[] {
    let listeners = this.byType.get(type);
    if (!listeners) {
      listeners = [...this.listeners].filter((listener) => listener.patterns.some((pattern) => matchesEventType(pattern, type)));
      this.byType.set(type, listeners);
    }
    return listeners;
  }

  private async dispatch(event: Envelope): Promise<void> {
    // Who has handled it: kept only for an event under retry, so a delivery that goes well allocates nothing.
    const done = this.handled.get(event.id);
    let failure: unknown;
    let handledNow: Listener[] | undefined;
    for (const listener of this.listenersOf(event.type)) {
      if (done?.has(listener)) continue;
      try {
        await listener.handler(event);
        (handledNow ??= []).push(listener);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure === undefined) {
      if (done) this.handled.delete(event.id);
      return;
    }
    // Bounded: an event that keeps failing goes to the dead letters, and its entry is forgotten with the oldest.
    if (!done && this.handled.size >= 1_000) this.handled.delete(this.handled.keys().next().value!);
    const now = done ?? new Set<Listener>();
    for (const listener of handledNow ?? []) now.add(listener);
    this.handled.set(event.id, now);
    throw failure;
  }
}

/** The patterns to subscribe to: each given once, less the types a wildcard among them already covers. */
export function coveringPatterns(types: readonly string[]): string[] {
  const unique = [...new Set(types)];
  const wildcards = unique.filter((type) => type.includes('*') || type.includes('>'));
  return unique.filter((type) => wildcards.includes(type) || !wildcards.some((pattern) => matchesEventType(pattern, type)));
}
