import { describe, expect, it } from 'vitest';
import { Envelope, EventBatch, VoteCast } from '@snapcracks/proto/events/v1';
import { makeEvent } from './event-types.js';
import { decodeEvents, encodeEvents } from './event-messages.js';

const voteCast = (photoId: number) => ({
  ...makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' }),
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
});

describe('event messages', () => {
  it('carries one event as the Envelope itself, exactly as it was encoded before batches existed', () => {
    const event = voteCast(1);
    const data = encodeEvents([event]);
    expect(data).toEqual(Envelope.encode(event).finish());
    expect(decodeEvents(data)).toEqual([event]);
  });

  it('carries several as a batch and reads them back in order', () => {
    const events = Array.from({ length: 300 }, (_, i) => voteCast(i + 1));
    expect(decodeEvents(encodeEvents(events))).toEqual(events);
  });

  it('never reads one message as the other: an Envelope is no batch, a batch is no Envelope', () => {
    const event = voteCast(1);
    expect(EventBatch.decode(Envelope.encode(event).finish()).events).toEqual([]);
    expect(Envelope.decode(encodeEvents([event, voteCast(2)]))).toMatchObject({ id: '', type: '' });
  });

  it('refuses bytes that are neither', () => {
    expect(() => decodeEvents(new Uint8Array([0x82, 0x01, 0x05, 0x0a]))).toThrow();
    expect(() => decodeEvents(new Uint8Array([0xff, 0xff, 0xff]))).toThrow();
  });
});
