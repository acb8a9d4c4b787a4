import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
  preValidationAsyncHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ERRORS, type Access, type Method, type RouteDefinition } from '@snapcracks/http-contract';
import { memberLimit } from './plugins/member-limits.js';
import { routeRateLimit } from './plugins/security.js';

/** `/api/photos/{id}` as Fastify writes it: `/api/photos/:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

type Defined<T> = T extends z.ZodType ? T : undefined;

/** The Fastify schema of a contract route, typed by its zod schemas so handlers get typed requests and replies. */
export interface SchemaOf<R extends RouteDefinition> {
  params: Defined<R['params']>;
  querystring: Defined<R['query']>;
  body: R['body'] extends { type: 'json' | 'image'; schema: infer B } ? B : undefined;
  response: R extends { preserialized: true } ? undefined : SuccessJson<R> & ErrorJson<R>;
}

type SuccessJson<R extends RouteDefinition> = R['ok'] extends { status: infer S extends number; json: infer J } ? { [K in S]: J } : unknown;
type ErrorJson<R extends RouteDefinition> = {
  [K in keyof R['errors'] as R['errors'][K] extends { json: z.ZodType } ? K : never]: R['errors'][K] extends { json: infer J } ? J : never;
};

export interface EndpointOptions<R extends RouteDefinition> {
  method: Method;
  url: string;
  schema: SchemaOf<R>;
  preValidation?: preValidationAsyncHookHandler[];
  onRequest?: onRequestAsyncHookHandler[];
  onSend?: onSendAsyncHookHandler[];
  config: FastifyContextConfig;
}

const GUARDS: Record<Exclude<Access, 'public'>, (request: FastifyRequest) => Promise<unknown>> = {
  signedIn: (request) => request.requireCaller(),
  member: (request) => request.requireMember(),
  admin: (request) => request.requireAdmin(),
};

/**
 * Who may call, checked before the input. The signed out are answered without an exception: they are the common
 * refusal (a signed-out visitor's first call asks who they are), and an exception costs as much as the rest of it.
 */
function guardOf(access: Access): preValidationAsyncHookHandler | undefined {
  if (access === 'public') return undefined;
  const guard = GUARDS[access];
  return async (request, reply) => {
    if (!(await request.currentUser())) return reply.code(401).send({ message: ERRORS.unauthorized });
    await guard(request);
  };
}

/**
 * A contract route's method, path, schemas, access check and rate limit, to spread into `route.route({...})`: the
 * gateway says how to answer, the contract says everything else. Access is checked before the input is validated, so
 * the signed out get 401 and members 403 whatever they sent. `onRequest` runs before the route's limit (a check that
 * must come before the body is read).
 */
export function endpoint<const R extends RouteDefinition>(app: FastifyInstance, route: R, options: { onRequest?: onRequestAsyncHookHandler[] } = {}): EndpointOptions<R> {
  const guard = guardOf(route.access);
  const memberLimited = route.limit && route.limit !== 'signIn' && route.limit !== 'contact' ? memberLimit(app, route.limit) : undefined;
  const addressLimited = route.limit === 'signIn' || route.limit === 'contact' ? routeRateLimit(app, route.limit) : {};
  const body = route.body && (route.body.type === 'json' || route.body.type === 'image') ? route.body.schema : undefined;
  const response = route.preserialized ? undefined : responseSchemas(route);
  const onRequest = [...(options.onRequest ?? []), ...(memberLimited?.onRequest ?? [])];
  return {
    method: route.method,
    url: fastifyPath(route.path),
    // Only the parts a route has: Fastify warns about a part given as undefined.
    schema: Object.fromEntries(Object.entries({ params: route.params, querystring: route.query, body, response }).filter(([, part]) => part !== undefined)) as unknown as SchemaOf<R>,
    ...(guard ? { preValidation: [guard] } : {}),
    ...(onRequest.length ? { onRequest } : {}),
    ...(memberLimited ? { onSend: memberLimited.onSend } : {}),
    config: addressLimited,
  } as EndpointOptions<R>;
}

/** A handler of a contract route: its request and reply typed by the route's schemas. */
export type ContractHandler<R extends RouteDefinition> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<R>,
  ZodTypeProvider
>;

/**
 * Registers handlers for contract routes on `app`: `serve(routes.castVote, async (request) => …)`. Every route of the
 * gateway's API goes through here, so none can differ from the contract the OpenAPI document describes.
 */
export function contractRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  return function serve<const R extends RouteDefinition>(route: R, handler: ContractHandler<R>, options?: { onRequest?: onRequestAsyncHookHandler[] }): void {
    typed.route({ ...endpoint(app, route, options), handler } as Parameters<typeof typed.route>[0]);
  };
}

/** The JSON answers a route serializes: its success and those of its own errors that are not `{ message }`. */
function responseSchemas(route: RouteDefinition): Record<number, z.ZodType> {
  const schemas: Record<number, z.ZodType> = {};
  if ('json' in route.ok) schemas[route.ok.status] = route.ok.json;
  for (const [status, error] of Object.entries(route.errors ?? {})) if (typeof error === 'object' && 'json' in error) schemas[Number(status)] = error.json;
  return schemas;
}

/** Whether `value` is one of `names` (a path segment naming a list, a filter), narrowing it. */
export function isOneOf<const T extends string>(names: readonly T[], value: string): value is T {
  return (names as readonly string[]).includes(value);
}
