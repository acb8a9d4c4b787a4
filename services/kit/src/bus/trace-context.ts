import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Context,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Envelope } from '@snapcracks/proto/events/v1';
import type { EventHandler } from './event-bus.js';

// The envelope field is a W3C traceparent by contract, so it is read and written with the W3C propagator
// itself rather than whichever propagators the process registered globally.
const w3c = new W3CTraceContextPropagator();

/** The W3C traceparent of the active span, or '' outside any trace. */
export function activeTraceparent(): string {
  const carrier: Record<string, string> = {};
  w3c.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent ?? '';
}

/** The context a W3C traceparent continues (the root context when it is empty or malformed). */
export function traceContextOf(traceparent: string): Context {
  return w3c.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
}

/**
 * `fn`, bound to the trace active now: work deferred to a later batch (a group commit) still stamps its events with
 * the trace of the request that asked for it.
 */
export function bindToActiveTrace<F extends (...args: never[]) => unknown>(fn: F): F {
  return context.bind(context.active(), fn);
}

/**
 * Runs `handler` in a consumer span that continues the producer's trace, so the change that caused an event
 * and every reaction to it show up as one trace.
 */
export function handleInEventContext(event: Envelope, handler: EventHandler): Promise<void> {
  const producerContext = traceContextOf(event.traceparent);
  const attributes = { 'messaging.operation.type': 'process', 'messaging.destination.name': event.type, 'messaging.message.id': event.id };
  // Asked for on each call, not once at import: the SDK may load its own (CommonJS) copy of the API, and a
  // tracer taken from this copy before the SDK registers would stay a no-op for good.
  const tracer = trace.getTracer('snapcracks.bus');
  return tracer.startActiveSpan(`consume ${event.type}`, { kind: SpanKind.CONSUMER, attributes }, producerContext, async (span) => {
    try {
      await handler(event);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
