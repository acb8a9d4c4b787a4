import fp from 'fastify-plugin';
import { instruments } from '@snapcracks/kit';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/**
 * The duration of every answer by method, route template and status code (http.server.request.duration), and one
 * server span per request, continuing the caller's W3C trace context, made the active context for the
 * rest of the request so every gRPC call the route makes joins the same trace.
 */
export default fp(async (app) => {
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = trace.getTracer('snapcracks.gateway').startSpan(
      `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] } },
      parent,
    );
    request.span = span;
    // Running the rest of the lifecycle inside the span's context propagates it through async continuations.
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's template, never the URL: one series per route, whatever ids and queries requests carry.
    instruments().httpServerDuration.record(reply.elapsedTime / 1000, {
      component: 'gateway',
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: reply.statusCode,
    });
    request.span?.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) request.span?.setStatus({ code: SpanStatusCode.ERROR });
    request.span?.end();
  });
});
