import { afterEach, describe, expect, it, vi } from 'vitest';
import { Envelope, PhotoUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import { createRecordingLogger } from '../testing/recording-logger.js';
import type { EventBus, EventHandler } from './event-bus.js';
import { makeEvent } from './event-types.js';
import { encodeEvents } from './event-messages.js';
import { createMemoryEventBus } from './memory-event-bus.js';

const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });
const photoUpdated = (photoId: number) => makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId, userId: 'u1', filename: 'f', status: 1, version: 1 } }, { source: 'photo' });

function recorder() {
  const events: Envelope[] = [];
  const handler: EventHandler = async (event) => {
    events.push(event);
  };
  return { events, handler };
}

describe('memory event bus', () => {
  const { logger, records } = createRecordingLogger();
  let bus: EventBus;
  const newBus = () => (bus = createMemoryEventBus({ logger, retry: { initialDelayMs: 5, maxDelayMs: 20, maxDeliveries: 4 } }));
  afterEach(() => bus.close());

  it('delivers outside the publisher\'s call, and resolves publish once every durable subscriber handled the event', async () => {
    newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    const published = bus.publish(event);
    expect(events).toEqual([]);
    await published;
    expect(events).toEqual([event]);
  });

  it('hands each event of a batch to its subscribers, and resolves once every one is handled', async () => {
    newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const batch = [voteCast(1), voteCast(2), voteCast(3)];
    await bus.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(batch) });
    expect(events).toEqual(batch);
  });

  it('keeps publish waiting while a durable subscriber fails, and rejects it when the bus closes first', async () => {
    // Retries far apart, so the bus is still waiting to retry when it closes.
    bus = createMemoryEventBus({ logger, retry: { initialDelayMs: 60_000, maxDelayMs: 60_000, maxDeliveries: 4 } });
    await bus.subscribe(
      async () => {
        throw new Error('down');
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const published = bus.publish(voteCast(1));
    let settled = false;
    published.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(() => expect(records.some((r) => r.msg === 'event handler failed; will redeliver')).toBe(true));
    expect(settled).toBe(false);
    await bus.close();
    await expect(published).rejects.toThrow('closed before the event was handled');
  });

  it('shares the events of a durable name between its subscribers, each event once', async () => {
    newBus();
    const first = recorder();
    const second = recorder();
    await bus.subscribe(first.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await bus.subscribe(second.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const published = Array.from({ length: 10 }, (_, i) => voteCast(i));
    for (const event of published) await bus.publish(event);

    await vi.waitFor(() => expect(first.events.length + second.events.length).toBe(10));
    expect([...first.events, ...second.events].map((e) => e.id).sort()).toEqual(published.map((e) => e.id).sort());
    expect(first.events.length).toBeGreaterThan(0);
    expect(second.events.length).toBeGreaterThan(0);
  });

  it('gives every durable name its own copy of each event', async () => {
    newBus();
    const stats = recorder();
    const photo = recorder();
    await bus.subscribe(stats.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await bus.subscribe(photo.handler, { durable: 'photo', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    await bus.publish(event);
    await vi.waitFor(() => expect([stats.events, photo.events]).toEqual([[event], [event]]));
  });

  it('delivers only the subscribed types, wildcards included', async () => {
    newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'cache', types: ['photo.>'] });
    const photo = photoUpdated(1);
    await bus.publish(voteCast(1));
    await bus.publish(photo);
    await vi.waitFor(() => expect(events).toEqual([photo]));
    await bus.publish(photoUpdated(2));
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events.map((e) => e.type)).toEqual(['photo.photo.updated', 'photo.photo.updated']);
  });

  it('redelivers after a handler throws, with backoff', async () => {
    newBus();
    let attempts = 0;
    await bus.subscribe(
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('database busy');
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const event = voteCast(1);
    await bus.publish(event);
    await vi.waitFor(() => expect(attempts).toBe(3));
    const delays = records.filter((r) => r.eventId === event.id).map((r) => r.retryInMs);
    expect(delays).toEqual([5, 10]);
  });

  it('moves an event that fails on every delivery to the dead letters, with one error line, and later events still flow', async () => {
    newBus();
    let attempts = 0;
    const { events, handler } = recorder();
    await bus.subscribe(
      async () => {
        attempts += 1;
        throw new Error(`poison\nattempt ${attempts}`);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    await bus.subscribe(handler, { durable: 'stats', types: ['photo.photo.updated'] });
    const poison = voteCast(1);
    await bus.publish(poison);
    expect(attempts).toBe(4);
    const errors = records.filter((r) => r.level === 50 && r.eventId === poison.id);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ consumer: 'stats', deliveries: 4, type: 'vote.vote.cast' });
    const [letter, ...others] = await bus.deadLetters.list();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({ consumer: 'stats', eventId: poison.id, type: 'vote.vote.cast', deliveries: 4, error: 'Error: poison attempt 4' });
    expect(Envelope.decode(letter!.data)).toEqual(poison);
    await bus.publish(photoUpdated(1));
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(attempts).toBe(4);
  });

  it('replays a dead letter to the consumer that gave up on it only, and discards one without delivering it', async () => {
    newBus();
    let failing = true;
    const stats: Envelope[] = [];
    const photo = recorder();
    await bus.subscribe(
      async (event) => {
        if (failing) throw new Error('projection broken');
        stats.push(event);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    await bus.subscribe(photo.handler, { durable: 'photo', types: ['vote.vote.cast'] });
    const [first, second] = [voteCast(1), voteCast(2)];
    await bus.publish(first);
    await bus.publish(second);
    const letters = await bus.deadLetters.list({ consumer: 'stats' });
    expect(letters.map((l) => l.eventId)).toEqual([first.id, second.id]);
    expect(await bus.deadLetters.list({ consumer: 'photo' })).toEqual([]);

    failing = false; // the bug is fixed
    await bus.deadLetters.replay(letters[0]!.seq);
    await bus.deadLetters.discard(letters[1]!.seq);
    expect(stats).toEqual([first]);
    expect(photo.events).toEqual([first, second]); // once each: the replay went to stats only
    expect(await bus.deadLetters.list()).toEqual([]);
    await expect(bus.deadLetters.replay(letters[0]!.seq)).rejects.toThrow('No dead letter');
  });

  it('hands a subscription up to its concurrency of events at once', async () => {
    newBus();
    let running = 0;
    let most = 0;
    const handled: Envelope[] = [];
    await bus.subscribe(
      async (event) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        handled.push(event);
      },
      { durable: 'stats', types: ['vote.vote.cast'], concurrency: 4 },
    );
    const events = Array.from({ length: 12 }, (_, i) => voteCast(i));
    await Promise.all(events.map((event) => bus.publish(event)));
    expect(most).toBe(4);
    expect(handled.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('keeps events for a durable name while nobody listens and delivers them when it subscribes', async () => {
    newBus();
    const early = voteCast(1);
    await bus.publish(early);
    const first = recorder();
    const subscription = await bus.subscribe(first.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await vi.waitFor(() => expect(first.events).toEqual([early]));

    await subscription.close();
    const whileAway = voteCast(2);
    const published = bus.publish(whileAway);
    const second = recorder();
    await bus.subscribe(second.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await published;
    expect(second.events).toEqual([whileAway]);
  });

  it('drops a repeated event id', async () => {
    newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    await bus.publish(event);
    await bus.publish({ ...event });
    const next = voteCast(2);
    await bus.publish(next);
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events).toEqual([event, next]);
  });

  it('broadcasts to ephemeral subscriptions only what is published after they subscribe', async () => {
    newBus();
    await bus.publish(voteCast(1));
    const first = recorder();
    const second = recorder();
    await bus.subscribe(first.handler, { types: ['vote.vote.cast'] });
    await bus.subscribe(second.handler, { types: ['vote.vote.cast'] });
    const later = voteCast(2);
    await bus.publish(later);
    await vi.waitFor(() => expect([first.events, second.events]).toEqual([[later], [later]]));
  });

  it('stops delivering to a closed subscription once its running handler finishes', async () => {
    newBus();
    let finish!: () => void;
    const handled: Envelope[] = [];
    const subscription = await bus.subscribe(
      async (event) => {
        await new Promise<void>((resolve) => (finish = resolve));
        handled.push(event);
      },
      { types: ['vote.vote.cast'] },
    );
    await bus.publish(voteCast(1));
    await vi.waitFor(() => expect(finish).toBeDefined());
    let closed = false;
    const closing = subscription.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(handled).toHaveLength(1);
    await bus.publish(voteCast(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(handled).toHaveLength(1);
  });
});
