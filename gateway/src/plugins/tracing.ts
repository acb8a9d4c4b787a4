import fp from 'fastify-plugin';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/**
 * One server span per request, continuing the caller's W3C trace context, made the active context for the
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
    request.span?.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) request.span?.setStatus({ code: SpanStatusCode.ERROR });
    request.span?.end();
  });
});
