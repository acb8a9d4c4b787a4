import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, createMemoryEventBus, makeEvent, type EventBus } from '@snapcracks/kit';
import { UserDeleted, VoteCast } from '@snapcracks/proto/events/v1';
import { GatewayEvents, coveringPatterns } from './gateway-events.js';

let bus: EventBus;
let events: GatewayEvents;
afterEach(async () => {
  await events?.close();
  await bus?.close();
});

const vote = () => makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'ann', rating: 4, voteCount: 1, ratingSum: 4, version: 1 }, { source: 'vote' });
const deleted = () => makeEvent('auth.user.deleted', UserDeleted, { userId: 'ann' }, { source: 'auth' });

describe('GatewayEvents', () => {
  it('subscribes once to each pattern, leaving out types a wildcard covers', () => {
    expect(coveringPatterns(['photo.>', 'vote.vote.cast', 'photo.photo.updated', 'auth.user.deleted', 'vote.vote.cast', 'photo.photo.deleted'])).toEqual([
      'photo.>',
      'vote.vote.cast',
      'auth.user.deleted',
    ]);
  });

  it('hands each event to the parts that listen for its type, through one subscription', async () => {
    bus = createMemoryEventBus();
    const subscribe = vi.spyOn(bus, 'subscribe');
    events = await GatewayEvents.start(bus, ['vote.vote.cast', 'auth.user.deleted', 'photo.>']);
    expect(subscribe).toHaveBeenCalledTimes(1);
    const seen: string[] = [];
    await events.subscribe(async (event) => void seen.push(`votes:${event.type}`), { types: ['vote.vote.cast'] });
    await events.subscribe(async (event) => void seen.push(`both:${event.type}`), { types: ['vote.vote.cast', 'auth.user.deleted'] });
    const photos = await events.subscribe(async (event) => void seen.push(`photos:${event.type}`), { types: ['photo.>'] });
    await photos.close();
    await bus.publish(vote());
    await bus.publish(deleted());
    await vi.waitFor(() => expect(seen).toEqual(['votes:vote.vote.cast', 'both:vote.vote.cast', 'both:auth.user.deleted']));
  });

  it('retries an event for the part that failed on it alone', async () => {
    bus = createMemoryEventBus({ retry: { initialDelayMs: 1, maxDelayMs: 1 }, logger: createLogger('test', 'silent') });
    events = await GatewayEvents.start(bus, ['vote.vote.cast']);
    let steady = 0;
    let flaky = 0;
    await events.subscribe(async () => void (steady += 1), { types: ['vote.vote.cast'] });
    await events.subscribe(
      async () => {
        flaky += 1;
        if (flaky === 1) throw new Error('not yet');
      },
      { types: ['vote.vote.cast'] },
    );
    await bus.publish(vote());
    await vi.waitFor(() => expect(flaky).toBe(2));
    expect(steady).toBe(1);
  });

  it('refuses a part that asks for a type it was not started with, or for a durable consumer', async () => {
    bus = createMemoryEventBus();
    events = await GatewayEvents.start(bus, ['photo.>', 'vote.vote.cast']);
    await expect(events.subscribe(async () => undefined, { types: ['photo.photo.updated'] })).resolves.toBeDefined();
    await expect(events.subscribe(async () => undefined, { types: ['auth.user.deleted'] })).rejects.toThrow('auth.user.deleted');
    await expect(events.subscribe(async () => undefined, { types: ['vote.>'] })).rejects.toThrow('vote.>');
    await expect(events.subscribe(async () => undefined, { types: ['vote.vote.cast'], durable: 'gateway' })).rejects.toThrow('broadcast');
  });
});
