import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { createMemoryEventBus, encodeEvents, makeEvent, type Envelope, type EventBus } from '@snapcracks/kit';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import { busOverPort, serveBus } from './bus-bridge.js';

const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });

// Both ends in one thread: a MessagePort behaves the same across threads, and the services' thread test covers that.
describe('the in-process bus across threads', () => {
  const { logger } = createRecordingLogger('error');
  let served: EventBus;
  let remote: EventBus;
  afterEach(async () => {
    await remote.close();
    await served.close();
  });

  function bridge(maxDeliveries = 3) {
    served = createMemoryEventBus({ logger, retry: { initialDelayMs: 5, maxDelayMs: 10, maxDeliveries } });
    const channel = new MessageChannel();
    serveBus(served, channel.port2);
    remote = busOverPort(channel.port1);
  }

  it('delivers what the served side publishes to the other side, intact, a batch as its events', async () => {
    bridge();
    const seen: Envelope[] = [];
    await remote.subscribe(async (event) => void seen.push(event), { types: ['vote.vote.cast'] });
    const single = voteCast(1);
    await served.publish(single);
    const batch = [voteCast(2), voteCast(3)];
    await served.publishEncoded({ id: 'batch', type: 'vote.vote.cast', data: encodeEvents(batch) });
    await vi.waitFor(() => expect(seen).toEqual([single, ...batch]));
  });

  it('publishes from the other side, and publish resolves once durable subscribers handled the event', async () => {
    bridge();
    const handled: string[] = [];
    await served.subscribe(async (event) => void handled.push(event.id), { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    await remote.publish(event);
    expect(handled).toEqual([event.id]);
  });

  it("retries a failing handler on the other side, then keeps the event as a dead letter, readable from there", async () => {
    bridge(2);
    let attempts = 0;
    await remote.subscribe(
      async () => {
        attempts += 1;
        throw new Error('cache unavailable');
      },
      { types: ['vote.vote.cast'] },
    );
    const event = voteCast(1);
    await served.publish(event);
    await vi.waitFor(async () => expect(await remote.deadLetters.list()).toHaveLength(1));
    expect(attempts).toBe(2);
    expect((await remote.deadLetters.list())[0]).toMatchObject({ eventId: event.id, consumer: 'ephemeral', error: 'Error: cache unavailable' });
  });

  it('stops delivering to a closed subscription', async () => {
    bridge();
    const seen: Envelope[] = [];
    const subscription = await remote.subscribe(async (event) => void seen.push(event), { types: ['vote.vote.cast'] });
    await subscription.close();
    await served.publish(voteCast(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([]);
  });
});
