import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageType } from '@nats-io/jetstream';
import { Envelope, PhotoUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import { createTestStream, type TestStream } from '../testing/nats.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import type { EventBus, EventHandler } from './event-bus.js';
import { makeEvent } from './event-types.js';
import { decodeEvents, encodeEvents } from './event-messages.js';
import { createNatsEventBus } from './nats-event-bus.js';
import { durableConsumerName } from './nats-jetstream-setup.js';
import { IdentityKeyring } from '../grpc/identity.js';

const identity = IdentityKeyring.generate();
const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });

function recorder() {
  const events: Envelope[] = [];
  const handler: EventHandler = async (event) => {
    events.push(event);
  };
  return { events, handler };
}

/** Generous, because other integration tests share the machine. */
const eventually = { timeout: 10_000, interval: 20 };

describe('NATS event bus', () => {
  const { logger, records } = createRecordingLogger();
  let nats: TestStream;
  const buses: EventBus[] = [];

  beforeEach(async () => {
    nats = await createTestStream('bus');
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await nats.delete();
  });

  async function newBus(maxDeliveries = 3): Promise<EventBus> {
    const bus = await createNatsEventBus({
      servers: nats.url,
      stream: nats.stream,
      subjectPrefix: nats.subjectPrefix,
      logger,
      identity,
      retry: { initialDelayMs: 100, maxDelayMs: 200, maxDeliveries },
    });
    buses.push(bus);
    return bus;
  }

  /** Resolves once the durable consumer has handed out and seen acknowledged (or terminated) every stored event. */
  async function consumerSettled(durable: string, type: string): Promise<void> {
    const name = durableConsumerName(durable, type);
    await vi.waitFor(async () => {
      const [{ state }, consumer] = await Promise.all([nats.jsm.streams.info(nats.stream), nats.jsm.consumers.info(nats.stream, name)]);
      expect(consumer.delivered.stream_seq).toBe(state.last_seq);
      expect(consumer.num_pending + consumer.num_ack_pending + consumer.num_redelivered).toBe(0);
    }, eventually);
  }

  it('creates a file stream over the subject prefix with a duplicate window', async () => {
    await newBus();
    const { config } = await nats.jsm.streams.info(nats.stream);
    expect(config.subjects).toEqual([`${nats.subjectPrefix}.>`]);
    expect(config.storage).toBe(StorageType.File);
    expect(config.duplicate_window).toBeGreaterThanOrEqual(60 * 1e9);
  });

  it('delivers an event to a durable subscriber, intact', async () => {
    const bus = await newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    await bus.publish(event);
    await vi.waitFor(() => expect(events).toEqual([event]), eventually);
    const stored = await nats.jsm.streams.getMessage(nats.stream, { seq: 1 });
    expect(stored?.subject).toBe(`${nats.subjectPrefix}.vote.vote.cast`);
    expect(stored?.header.get('Nats-Msg-Id')).toBe(event.id);
    await consumerSettled('stats', 'vote.vote.cast');
  });

  it('delivers events published before the durable consumer existed, and only subscribed types', async () => {
    const bus = await newBus();
    const early = voteCast(1);
    await bus.publish(early);
    await bus.publish(makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: 1, userId: 'u1', filename: 'f', status: 1, version: 1 } }, { source: 'photo' }));
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.>'] });
    await vi.waitFor(() => expect(events).toEqual([early]), eventually);
    await consumerSettled('stats', 'vote.>');
    expect(events).toHaveLength(1);
  });

  it('redelivers an event whose handler threw', async () => {
    const bus = await newBus();
    const deliveries: Envelope[] = [];
    await bus.subscribe(
      async (event) => {
        deliveries.push(event);
        if (deliveries.length === 1) throw new Error('database busy');
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const event = voteCast(1);
    await bus.publish(event);
    await vi.waitFor(() => expect(deliveries).toHaveLength(2), eventually);
    expect(deliveries.map((e) => e.id)).toEqual([event.id, event.id]);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(deliveries).toHaveLength(2);
  });

  it('moves an event that fails on every allowed delivery to the dead-letter stream, with one error line', async () => {
    const bus = await newBus();
    let attempts = 0;
    await bus.subscribe(
      async () => {
        attempts += 1;
        throw new Error(`poison\nattempt ${attempts}`);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const poison = voteCast(1);
    await bus.publish(poison);
    await vi.waitFor(() => expect(records.some((r) => r.level === 50 && r.eventId === poison.id)).toBe(true), eventually);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(attempts).toBe(3);
    expect(records.filter((r) => r.level === 50 && r.eventId === poison.id)).toHaveLength(1);

    // Stored in <stream>_DLQ under <prefix>_dead.<consumer>: the event's bytes, its story in headers.
    const stored = await nats.jsm.streams.getMessage(`${nats.stream}_DLQ`, { last_by_subj: `${nats.subjectPrefix}_dead.stats` });
    expect(Envelope.decode(stored!.data)).toEqual(poison);
    expect(stored!.header.get('Snapcracks-Deliveries')).toBe('3');
    const [letter, ...others] = await bus.deadLetters.list();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({ consumer: 'stats', eventId: poison.id, type: 'vote.vote.cast', deliveries: 3, error: 'Error: poison attempt 3' });
  });

  it('carries a batch as one message and hands its events, in order, to durable and broadcast subscribers alike', async () => {
    const bus = await newBus();
    const durable = recorder();
    const broadcast = recorder();
    await bus.subscribe(durable.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await bus.subscribe(broadcast.handler, { types: ['vote.vote.cast'] });
    const batch = [voteCast(1), voteCast(2), voteCast(3)];
    await bus.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(batch) });
    await bus.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(batch) }); // a repeat: dropped
    await vi.waitFor(() => expect(durable.events).toEqual(batch), eventually);
    await vi.waitFor(() => expect(broadcast.events).toEqual(batch), eventually);
    const { state } = await nats.jsm.streams.info(nats.stream);
    expect(state.messages).toBe(1);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(durable.events).toHaveLength(3);
  });

  it('gives up on the events of a batch that keep failing, each as its own dead letter, and on nothing else', async () => {
    const bus = await newBus();
    const batch = [voteCast(1), voteCast(2), voteCast(3)];
    const poison = new Set([batch[0]!.id, batch[2]!.id]);
    const handled: string[] = [];
    await bus.subscribe(
      async (event) => {
        if (poison.has(event.id)) throw new Error(`poison ${event.id}`);
        handled.push(event.id);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    await bus.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(batch) });
    await vi.waitFor(async () => expect(await bus.deadLetters.list()).toHaveLength(2), eventually);
    await consumerSettled('stats', 'vote.vote.cast');
    // The healthy event was handled on every delivery of the message (consumers skip what they recorded).
    expect(handled).toEqual([batch[1]!.id, batch[1]!.id, batch[1]!.id]);
    const letters = await bus.deadLetters.list();
    expect(letters.map((letter) => letter.eventId).sort()).toEqual([...poison].sort());
    // Each keeps the message as the producer signed it, the whole batch, so that a replay verifies.
    expect(letters.map((letter) => decodeEvents(letter.data))).toEqual([batch, batch]);
    expect(letters.every((letter) => letter.deliveries === 3 && letter.error.startsWith('Error: poison'))).toBe(true);
  });

  it('replays a dead letter through the events stream, and discards one', async () => {
    const bus = await newBus(1);
    let failing = true;
    const { events, handler } = recorder();
    await bus.subscribe(
      async (event) => {
        if (failing) throw new Error('projection broken');
        await handler(event);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const [first, second] = [voteCast(1), voteCast(2)];
    await bus.publish(first);
    await bus.publish(second);
    await vi.waitFor(async () => expect(await bus.deadLetters.list({ consumer: 'stats' })).toHaveLength(2), eventually);
    expect(await bus.deadLetters.list({ consumer: 'photo' })).toEqual([]);
    const letters = await bus.deadLetters.list();

    failing = false; // the bug is fixed
    const replayed = letters.find((l) => l.eventId === first.id)!;
    await bus.deadLetters.replay(replayed.seq);
    await bus.deadLetters.discard(letters.find((l) => l.eventId === second.id)!.seq);
    await vi.waitFor(() => expect(events).toEqual([first]), eventually);
    expect(await bus.deadLetters.list()).toEqual([]);
    await expect(bus.deadLetters.replay(replayed.seq)).rejects.toThrow();
  });

  it('hands a subscription up to its concurrency of events at once', async () => {
    const bus = await newBus();
    let running = 0;
    let most = 0;
    const { events, handler } = recorder();
    await bus.subscribe(
      async (event) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
        await handler(event);
      },
      { durable: 'stats', types: ['vote.vote.cast'], concurrency: 4 },
    );
    const published = Array.from({ length: 12 }, (_, i) => voteCast(i));
    await Promise.all(published.map((event) => bus.publish(event)));
    await vi.waitFor(() => expect(events).toHaveLength(12), eventually);
    expect(most).toBe(4);
  });

  it('stores an event published twice with the same id once', async () => {
    const bus = await newBus();
    const { events, handler } = recorder();
    await bus.subscribe(handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    await bus.publish(event);
    await bus.publish(event);
    const { state } = await nats.jsm.streams.info(nats.stream);
    expect(state.messages).toBe(1);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(events).toEqual([event]);
  });

  it('shares a durable name between instances, each event handled once', async () => {
    const [one, two] = [recorder(), recorder()];
    await (await newBus()).subscribe(one.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    await (await newBus()).subscribe(two.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    // Both instances have asked for messages, so the server can hand them out in turn.
    await vi.waitFor(async () => {
      const consumer = await nats.jsm.consumers.info(nats.stream, durableConsumerName('stats', 'vote.vote.cast'));
      expect(consumer.num_waiting).toBe(2);
    }, eventually);

    const publisher = await newBus();
    const published = Array.from({ length: 20 }, (_, i) => voteCast(i));
    for (const event of published) await publisher.publish(event);

    await vi.waitFor(() => expect(one.events.length + two.events.length).toBe(20), eventually);
    await consumerSettled('stats', 'vote.vote.cast');
    const handled = [...one.events, ...two.events].map((e) => e.id);
    expect(handled.sort()).toEqual(published.map((e) => e.id).sort());
    expect(one.events.length).toBeGreaterThan(0);
    expect(two.events.length).toBeGreaterThan(0);
  });

  it("turns JetStream's own delivery limit off on an existing durable consumer: the bus moves the event to the dead letters itself", async () => {
    const name = durableConsumerName('stats', 'vote.vote.cast');
    const first = await (await newBus(3)).subscribe(async () => undefined, { durable: 'stats', types: ['vote.vote.cast'] });
    await first.close();
    // As an earlier version left it: JetStream stopped delivering after the limit without telling anyone.
    await nats.jsm.consumers.update(nats.stream, name, { max_deliver: 3 });
    await (await newBus(5)).subscribe(async () => undefined, { durable: 'stats', types: ['vote.vote.cast'] });
    expect((await nats.jsm.consumers.info(nats.stream, name)).config.max_deliver).toBe(-1);
  });

  it('deletes the consumers of types a durable no longer takes, and no other durable’s', async () => {
    const consumerNames = async () => (await nats.jsm.consumers.list(nats.stream).next()).map((info) => info.name).sort();
    const before = await newBus();
    const earlier = [
      { durable: 'support-vote-notices', types: ['vote.vote.cast', 'photo.photo.*'] },
      // Names that begin like it but belong to other durables.
      { durable: 'support-vote-notices__old', types: ['vote.vote.cast'] },
      { durable: 'support-vote-notices-x', types: ['vote.vote.cast'] },
    ];
    for (const options of earlier) await (await before.subscribe(async () => undefined, options)).close();

    const after = await newBus();
    const { handler, events } = recorder();
    await after.subscribe(handler, { durable: 'support-vote-notices', types: ['photo.photo.*', 'vote.photo.milestones_reached'] });
    expect(await consumerNames()).toEqual(
      [
        durableConsumerName('support-vote-notices', 'photo.photo.*'),
        durableConsumerName('support-vote-notices', 'vote.photo.milestones_reached'),
        durableConsumerName('support-vote-notices__old', 'vote.vote.cast'),
        durableConsumerName('support-vote-notices-x', 'vote.vote.cast'),
      ].sort(),
    );
    expect(records.some((r) => r.msg === 'deleted the consumers of types this durable no longer takes' && String(r.retired) === durableConsumerName('support-vote-notices', 'vote.vote.cast'))).toBe(true);
    // The durable still takes what it subscribes to.
    const update = makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: 1, userId: 'u1', filename: 'a.jpg', status: 1, version: 2 } }, { source: 'photo' });
    await (await newBus()).publish(update);
    await vi.waitFor(() => expect(events.map((e) => e.id)).toEqual([update.id]), eventually);
  });

  it('broadcasts to every ephemeral subscriber only events published after it subscribed', async () => {
    const publisher = await newBus();
    await publisher.publish(voteCast(1));
    const [one, two] = [recorder(), recorder()];
    await (await newBus()).subscribe(one.handler, { types: ['vote.vote.cast'] });
    await (await newBus()).subscribe(two.handler, { types: ['vote.vote.cast'] });
    const later = voteCast(2);
    await publisher.publish(later);
    await vi.waitFor(() => expect([one.events, two.events]).toEqual([[later], [later]]), eventually);
  });

  it('retries a failing ephemeral handler in place', async () => {
    const bus = await newBus();
    const deliveries: Envelope[] = [];
    await bus.subscribe(
      async (event) => {
        deliveries.push(event);
        if (deliveries.length === 1) throw new Error('cache unavailable');
      },
      { types: ['vote.vote.cast'] },
    );
    const event = voteCast(1);
    await bus.publish(event);
    await vi.waitFor(() => expect(deliveries.map((e) => e.id)).toEqual([event.id, event.id]), eventually);
  });
});
