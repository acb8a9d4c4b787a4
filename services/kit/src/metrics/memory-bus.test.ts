import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { pino } from 'pino';
import { createMemoryEventBus } from '../bus/memory-event-bus.js';
import { makeEvent } from '../bus/event-types.js';
import { startMetrics, processMetrics } from './provider.js';
import { renderPrometheus } from './server.js';

let telemetry: { shutdown(): Promise<void> };
beforeAll(() => {
  telemetry = startMetrics({ component: 'snapcracks', resource: resourceFromAttributes({}) });
});
afterAll(() => telemetry.shutdown());

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('deliveries on the in-process bus (the all-in-one mode)', () => {
  it('are counted by outcome under the service the durable name starts with, dead letters too', async () => {
    const bus = createMemoryEventBus({ logger: pino({ level: 'silent' }), retry: { initialDelayMs: 1, maxDelayMs: 1, maxDeliveries: 2 } });
    let calls = 0;
    await bus.subscribe(
      async (event) => {
        calls += 1;
        if (VoteCast.decode(event.payload).photoId === 2 || calls === 1) throw new Error('not now');
      },
      { durable: 'stats-tallies', types: ['vote.vote.cast'] },
    );
    const cast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });
    await bus.publish(cast(1)); // fails once, then handled
    await bus.publish(cast(2)); // fails twice: a dead letter
    await bus.close();

    const { resourceMetrics } = await processMetrics()!.prometheus.collect();
    const text = renderPrometheus(resourceMetrics);
    const consumer = 'component="stats",consumer="stats-tallies"';
    expect(value(text, `snapcracks_events_delivered_total{${consumer},outcome="ok"}`)).toBe(1);
    expect(value(text, `snapcracks_events_delivered_total{${consumer},outcome="retry"}`)).toBe(2);
    expect(value(text, `snapcracks_events_delivered_total{${consumer},outcome="dead"}`)).toBe(1);
    expect(value(text, `snapcracks_events_redelivered_total{${consumer}}`)).toBe(2);
    expect(value(text, `snapcracks_dead_letters_total{${consumer}}`)).toBe(1);
  });
});
