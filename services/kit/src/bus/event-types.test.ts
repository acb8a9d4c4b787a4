import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, propagation, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { PhotoUploaded, UserDeleted, UserUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import { EventTypes, decodeEvent, makeEvent } from './event-types.js';

describe('makeEvent and decodeEvent', () => {
  const provider = new NodeTracerProvider();
  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('wraps a payload in an envelope that decodes back to it', () => {
    const event = makeEvent(EventTypes.vote.voteCast, VoteCast, { photoId: 7, userId: 'u1', rating: 4, previousRating: 2 }, { source: 'vote' });
    expect(event).toMatchObject({ type: 'vote.vote.cast', source: 'vote', traceparent: '' });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.occurredAt).toBeInstanceOf(Date);
    expect(decodeEvent(event, VoteCast)).toEqual({ photoId: 7, userId: 'u1', rating: 4, previousRating: 2 });
  });

  it('gives every event its own id, ordered by when it was made (UUIDv7)', async () => {
    const a = makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' });
    const b = makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' });
    expect([later.id, b.id, a.id].sort().at(-1)).toBe(later.id);
    // The first 48 bits are the time in milliseconds.
    expect(Math.abs(parseInt(later.id.replace('-', '').slice(0, 12), 16) - Date.now())).toBeLessThan(1_000);
  });

  it('records the active trace context', () => {
    const span = trace.getTracer('test').startSpan('change');
    const event = context.with(trace.setSpan(context.active(), span), () =>
      makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' }),
    );
    span.end();
    const { traceId, spanId } = span.spanContext();
    expect(event.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });

  it('refuses a codec that does not belong to the type', () => {
    // @ts-expect-error VoteCast is not the payload of auth.user.updated
    expect(() => makeEvent('auth.user.updated', VoteCast, { photoId: 1, userId: 'u', rating: 1 }, { source: 'auth' })).toThrow(
      /do not carry the payload/,
    );
    // Structurally compatible codecs get past the compiler, but not past the registry.
    expect(() => makeEvent('photo.photo.updated', PhotoUploaded, { photo: { photoId: 1, userId: 'u', filename: 'f', status: 1, version: 1 } }, { source: 'photo' })).toThrow(
      /do not carry the payload/,
    );
    const event = makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' });
    expect(() => decodeEvent(event, UserUpdated)).toThrow(/"auth.user.deleted" events do not carry/);
  });
});
