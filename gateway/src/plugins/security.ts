import { ERRORS } from '@snapcracks/http-contract';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RateLimit, RateLimits } from '../config.js';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instruments } from '@snapcracks/kit';
import { HttpError } from '../http-errors.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SecurityOptions {
  /** Origins allowed to make state-changing calls; empty means "the request's own origin". */
  allowedOrigins: string[];
  /** Extra script-src sources, e.g. hashes of the SPA's inline scripts. */
  scriptSources: string[];
  /** The identity provider's origin: signing out posts a form that it redirects to. */
  identityProviderOrigin: string;
  /** Each limit's maximum and window (RATE_LIMIT_*). */
  rateLimits: RateLimits;
  /** Where the counts live, shared by every replica (REDIS_URL); each replica counts in its own memory without it. */
  redis?: Redis | undefined;
  /** Prefix of the counts' keys in Redis, so that installations (and test runs) sharing a Redis keep apart. */
  redisKeyPrefix?: string;
  /** Vite's dev server needs inline scripts and websockets; never in production. */
  development: boolean;
}

/**
 * Security headers (CSP, HSTS over TLS only, no sniffing, frame denial), per-client rate limiting, and a
 * cross-site request defence for every state-changing call: SameSite=Lax cookies plus a check that the
 * Origin (or Referer) is our own, so another site cannot make a signed-in browser act.
 */
export default fp<SecurityOptions>(async (app, options) => {
  // helmet itself, built once per variant: @fastify/helmet builds it (parsing the CSP) again on every request.
  const securityHeaders = (strictTransportSecurity: boolean) =>
    helmet({
      strictTransportSecurity,
      contentSecurityPolicy: options.development
        ? false
        : {
            directives: {
              defaultSrc: ["'self'"],
              // 'wasm-unsafe-eval' lets our own WebAssembly compile (the upload page's HEIC decoder, in a worker that
              // gets this policy too); it allows no eval() or new Function() of JavaScript.
              scriptSrc: ["'self'", ...options.scriptSources, "'wasm-unsafe-eval'"],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
              connectSrc: ["'self'"],
              // https: for the provider's own redirects; a plain-http provider (the development one, on loopback) by name only.
              formAction: ["'self'", 'https:', ...(options.identityProviderOrigin.startsWith('http:') ? [options.identityProviderOrigin] : [])],
              frameAncestors: ["'none'"],
              objectSrc: ["'none'"],
              upgradeInsecureRequests: null,
            },
          },
      crossOriginEmbedderPolicy: false,
      // Sign-in redirects to the identity provider and back; a strict opener policy is fine, referrers are trimmed.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The policy's frame-ancestors 'none' says the same; SAMEORIGIN (helmet's default) would contradict it for browsers
      // that read only this header.
      xFrameOptions: { action: 'deny' },
    });
  // HSTS only on an answer that came over TLS (directly, or through a proxy TRUST_PROXY believes): over plain http
  // a browser ignores it, and a development address on http must never be told to insist on https.
  const overTls = securityHeaders(true);
  const overPlainHttp = securityHeaders(false);
  app.addHook('onRequest', (request, reply, done) =>
    (request.protocol === 'https' ? overTls : overPlainHttp)(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  app.decorate('securityHeaders', { overTls: headersSetBy(overTls), overPlainHttp: headersSetBy(overPlainHttp) });

  app.decorate('rateLimits', options.rateLimits);
  await app.register(rateLimit, {
    max: options.rateLimits.api.max,
    timeWindow: options.rateLimits.api.windowMs,
    ...(options.redis ? { redis: options.redis, nameSpace: options.redisKeyPrefix ?? 'snapcracks:rate-limit:' } : {}),
    // Redis unreachable: requests go unlimited rather than failing (the store's client logs the outage once).
    skipOnError: true,
    // Images and the web app's files are fetched by the dozen on every page and are cheap (ETags, immutable
    // assets): counting them would make a member browsing the gallery hit the limit. Every other call counts.
    allowList: (request) => isUnmetered(request.method, request.url),
    errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, message: ERRORS.tooMany }),
    // Routes with limits of their own inherit it.
    onExceeded: countRefusal,
  });

  // API answers are personal unless a route says otherwise (public gallery pages do): no cache may keep them.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  app.addHook('onRequest', async (request) => {
    // Redirects and the origin check build URLs from the Host header: one that is not a host is refused here.
    if (!isHost(request.host)) throw new HttpError(400, ERRORS.badRequest);
    if (!UNSAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new HttpError(403, ERRORS.crossSite);
    const source = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (!source) return; // Not a browser: browsers always send Origin on cross-origin writes.
    const own = `${request.protocol}://${request.host}`;
    const allowed = options.allowedOrigins.length ? options.allowedOrigins : [own];
    if (!allowed.includes(source)) throw new HttpError(403, ERRORS.crossSite);
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name a route's own rate limit has in snapcracks.rate_limit.refusals (e.g. "votes"); the route otherwise. */
    rateLimitName?: string;
  }
}

/** A 429, under the limit that refused it: the API-wide one, or the route's own. */
function countRefusal(request: FastifyRequest): void {
  const config = request.routeOptions.config;
  const limit = config.rateLimit ? (config.rateLimitName ?? request.routeOptions.url ?? 'route') : 'api';
  instruments().rateLimitRefusals.add(1, { component: 'gateway', limit });
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
    /** The headers every answer gets from helmet, as name and value pairs, for answers written without the lifecycle. */
    securityHeaders: { overTls: [string, string][]; overPlainHttp: [string, string][] };
  }
}

/** What a helmet middleware sets, run once on a stand-in response: its headers depend on nothing in the request. */
function headersSetBy(middleware: ReturnType<typeof helmet>): [string, string][] {
  // By lower-case name, each with the name as helmet spells it, so that both answers write the same bytes.
  const headers = new Map<string, [string, string]>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return [...headers.values()];
}

/** Names of the limits per client address a route has of its own (the others count against the API's; per-member limits: member-limits.ts). */
export type RouteLimitName = 'signIn' | 'contact';
const LIMIT_NAMES: Record<RouteLimitName, string> = { signIn: 'sign-in', contact: 'contact' };

/** A route's own limit per client address, for its `config`. */
export function routeRateLimit(app: FastifyInstance, name: RouteLimitName): FastifyContextConfig {
  // Routes tested on their own, without this plugin, have no limiter to configure.
  if (!app.hasDecorator('rateLimits')) return {};
  const limit: RateLimit = app.rateLimits[name];
  return {
    rateLimitName: LIMIT_NAMES[name],
    rateLimit: { max: limit.max, timeWindow: limit.windowMs },
  };
}

function isUnmetered(method: string, url: string): boolean {
  if (url === '/healthz' || url === '/readyz') return true;
  if (method !== 'GET' && method !== 'HEAD') return false;
  return url.startsWith('/api/uploads/') || url.startsWith('/uploads/') || !url.startsWith('/api/');
}

/** Hosts already found well-formed: nearly every request names one of a few, and parsing it costs a URL. */
const knownHosts = new Set<string>();
const KNOWN_HOSTS_MAX = 100;

/** Whether a Host header names a host (and port): anything else is refused before a route builds a URL from it. */
export function isHost(host: string): boolean {
  if (knownHosts.has(host)) return true;
  if (!parsesAsHost(host)) return false;
  if (knownHosts.size >= KNOWN_HOSTS_MAX) knownHosts.clear();
  knownHosts.add(host);
  return true;
}

function parsesAsHost(host: string): boolean {
  if (!host || /[\s/\\@?#]/.test(host)) return false;
  try {
    const url = new URL(`http://${host}`);
    return url.host !== '' && url.pathname === '/';
  } catch {
    return false;
  }
}

/**
 * What a refusal made before any route or plugin ran (a URL that cannot be decoded) still carries: the
 * headers helmet would have set, for an answer that is only a short JSON message.
 */
export const BARE_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}
