import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CachedPage, PublicPageCache } from '../public-page-cache.js';
import { isHost } from './security.js';

export interface SharedPageHitsOptions {
  cache: PublicPageCache;
}

type CountRequest = ReturnType<FastifyRequest['server']['createRateLimit']>;

/**
 * Answers a request for a public page the cache keeps at the very front of the lifecycle, before tracing, the security
 * hooks, the session and the route: a hit is the same bytes for everyone, so most of what a request costs there is
 * work a hit does not need (docs/PERFORMANCE.md, Cached public pages). What a hit still does, as the full path would:
 * the Host check, the API's rate limit (counted in the same store; over it, the request goes the full way and is
 * refused there), helmet's headers, the ETag and 304, the request-duration metric and the cache's hit counter (Fastify
 * still runs the response hooks of a hijacked reply). What it leaves out: a trace span, since it calls nothing and its
 * duration is in the metric, and its access-log line, which shared pages write at debug anyway.
 *
 * Only a URL a route has answered from the cache is recognised (PublicPageCache.atUrl): the route validated it and
 * named its key, so every other request, and every first one after a change, takes the full path.
 */
export default fp<SharedPageHitsOptions>(
  async (app, { cache }) => {
    // Decorated by the security plugin, registered after this one so that a hit runs before its hooks.
    let countRequest: CountRequest | undefined;
    let securityHeaders: FastifyInstance['securityHeaders'] | undefined;
    app.addHook('onReady', async () => {
      countRequest = app.createRateLimit();
      securityHeaders = app.securityHeaders;
    });

    app.addHook('onRequest', (request, reply, done) => {
      if (request.method !== 'GET' || countRequest === undefined || securityHeaders === undefined) return done();
      const page = cache.atUrl(request.url);
      if (page === undefined || !isHost(request.host)) return done();
      countRequest(request).then((limit) => {
        if (!limit.isAllowed && limit.isExceeded) return done();
        request.sharedPage = true;
        const rateHeaders: [string, string][] = limit.isAllowed
          ? []
          : [
              ['x-ratelimit-limit', String(limit.max)],
              ['x-ratelimit-remaining', String(limit.remaining)],
              ['x-ratelimit-reset', String(limit.ttlInSeconds)],
            ];
        const security = request.protocol === 'https' ? securityHeaders!.overTls : securityHeaders!.overPlainHttp;
        send(request, reply, page, [...security, ...rateHeaders]);
        done();
      }, done);
    });
  },
  { name: 'shared-page-hits' },
);

/** The answer the route's sendPage gives, written at once: 304 when the client has this version, else the page. */
function send(request: FastifyRequest, reply: FastifyReply, page: CachedPage, common: [string, string][]): void {
  reply.hijack();
  const headers: string[] = [];
  for (const [name, value] of common) headers.push(name, value);
  headers.push('cache-control', 'no-cache', 'etag', page.etag);
  if (request.headers['if-none-match'] === page.etag) {
    reply.raw.writeHead(304, headers).end();
    return;
  }
  headers.push('content-type', 'application/json; charset=utf-8', 'content-length', String(page.body.length));
  reply.raw.writeHead(200, headers).end(page.body);
}
