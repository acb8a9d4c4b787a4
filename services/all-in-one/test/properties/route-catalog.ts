import diagnostics from 'node:diagnostics_channel';
import { z } from 'zod';

/** The parts of a request a route's schema validates, as Fastify names them. */
export const REQUEST_PARTS = ['params', 'querystring', 'body'] as const;
export type RequestPart = (typeof REQUEST_PARTS)[number];

export interface CatalogRoute {
  method: string;
  /** Fastify's pattern, e.g. `/api/photos/:id`. */
  url: string;
  /** The zod schema of each part the route validates. */
  schema: Partial<Record<RequestPart, z.ZodType>>;
  /** Other parts it validates with a schema (headers), which the generators do not make: a test refuses any. */
  otherParts: string[];
}

interface RouteOptionsSeen {
  method: string | string[];
  url: string;
  schema?: Partial<Record<string, unknown>>;
}
interface InitializedFastify {
  addHook(name: 'onRoute', hook: (route: RouteOptionsSeen) => void): void;
}

/**
 * Records the routes of every Fastify app created in this thread from now on, with their zod schemas, through the
 * `fastify.initialization` diagnostics channel: Fastify publishes each new instance there before any plugin is
 * registered, so an `onRoute` hook added then sees every route the running gateway serves — the list the properties
 * cover is the product's own, never a hand-kept copy. HEAD routes (added for each GET, same handler) are left out.
 *
 * Call before starting the system, and `stop()` once it has started.
 */
export function recordRoutes(): { routes(): CatalogRoute[]; stop(): void } {
  const apps: CatalogRoute[][] = [];
  const onInitialization = (message: unknown) => {
    const routes: CatalogRoute[] = [];
    apps.push(routes);
    (message as { fastify: InitializedFastify }).fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const schema: CatalogRoute['schema'] = {};
        for (const part of REQUEST_PARTS) {
          const candidate = route.schema?.[part];
          if (candidate instanceof z.ZodType) schema[part] = candidate;
        }
        const otherParts = Object.keys(route.schema ?? {}).filter((part) => part !== 'response' && !(REQUEST_PARTS as readonly string[]).includes(part) && route.schema?.[part] instanceof z.ZodType);
        routes.push({ method, url: route.url, schema, otherParts });
      }
    });
  };
  diagnostics.subscribe('fastify.initialization', onInitialization);
  return {
    // The gateway is the app that serves /api (the development identity provider, if it ever used Fastify, would not).
    routes: () => apps.find((routes) => routes.some((route) => route.url.startsWith('/api/'))) ?? [],
    stop: () => void diagnostics.unsubscribe('fastify.initialization', onInitialization),
  };
}

/** `METHOD /url`, how the tests and their messages name a route. */
export const routeKey = (route: Pick<CatalogRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** The names of a route's path parameters, in order (`/api/photos/:id/vote` → `['id']`). */
export function pathParameters(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}
