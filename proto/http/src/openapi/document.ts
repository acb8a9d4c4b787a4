import type { ZodType } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { routes } from '../routes.js';
import type { Access, RouteDefinition } from '../route.js';
import { errorBody } from '../schemas/errors.js';

/** The version of the HTTP API; it changes only with a change that breaks clients (openapi/compatibility.ts says which). */
export const API_VERSION = '1.0.0';

const SESSION = 'session';

/** Who may call, in the words of the document. */
const ACCESS_NOTE: Record<Access, string | null> = {
  public: null,
  signedIn: 'Signed in.',
  member: 'Signed in, enabled, terms accepted.',
  admin: 'Admins only.',
};

/** The answers routes share, described once in the document's components. */
const SHARED = {
  BadRequest: [400, 'The input is invalid; the message names the problem.'],
  Unauthorized: [401, 'Not signed in.'],
  Disabled: [403, 'The account is disabled.'],
  NotAMember: [403, 'The terms are not accepted yet, or the account is disabled.'],
  NotAnAdmin: [403, 'Not an admin.'],
  TooManyRequests: [429, "Too many requests from this address, or this member's limit on the route (x-rate-limit); Retry-After says when to try again."],
  Unavailable: [503, 'A service is unavailable for a moment; try again.'],
} as const;
type SharedAnswer = keyof typeof SHARED;

const FORBIDDEN: Record<Access, SharedAnswer | null> = { public: null, signedIn: 'Disabled', member: 'NotAMember', admin: 'NotAnAdmin' };

/** Every route's answers beyond its own: bad input, who may call, rate limits, outages. */
function sharedAnswers(route: RouteDefinition): SharedAnswer[] {
  const forbidden = FORBIDDEN[route.access];
  return [
    ...(route.params || route.query || route.body || route.headers ? (['BadRequest'] as const) : []),
    ...(route.access === 'public' ? [] : (['Unauthorized'] as const)),
    ...(forbidden ? [forbidden] : []),
    'TooManyRequests',
    'Unavailable',
  ];
}

const json = (schema: ZodType) => ({ 'application/json': { schema } });
const html = { 'text/html': { schema: { type: 'string' as const } } };

function responses(route: RouteDefinition): ZodOpenApiResponsesObject {
  const answers: Record<string, ZodOpenApiResponseObject | { $ref: string }> = {};
  const ok = route.ok;
  if ('json' in ok) answers[ok.status] = { description: ok.description, content: json(ok.json) };
  else if ('html' in ok) answers[ok.status] = { description: ok.html, content: html };
  else if ('image' in ok) answers[ok.status] = { description: ok.image, content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } };
  else if ('file' in ok) answers[ok.status] = { description: ok.file.description, content: { [ok.file.mediaType]: { schema: { type: 'string', format: 'binary' } } } };
  else if ('eventStream' in ok) answers[ok.status] = { description: ok.eventStream, content: { 'text/event-stream': { schema: { type: 'string' } } } };
  else if ('headers' in ok)
    answers[ok.status] = {
      description: ok.description,
      headers: Object.fromEntries(Object.entries(ok.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
    };
  else answers[ok.status] = { description: ok.description };
  for (const [status, description] of Object.entries(route.also ?? {})) answers[status] = { description };
  for (const name of sharedAnswers(route)) answers[SHARED[name][0]] = { $ref: `#/components/responses/${name}` };
  for (const [status, error] of Object.entries(route.errors ?? {})) {
    if (typeof error === 'string') answers[status] = { description: error, content: json(errorBody) };
    else answers[status] = { description: error.description, content: 'json' in error ? json(error.json) : html };
  }
  return Object.fromEntries(Object.entries(answers).sort(([a], [b]) => Number(a) - Number(b))) as ZodOpenApiResponsesObject;
}

function requestBody(route: RouteDefinition): ZodOpenApiOperationObject['requestBody'] {
  const body = route.body;
  if (!body) return undefined;
  if (body.type === 'json') return { required: true, content: { 'application/json': { schema: body.schema } } };
  if (body.type === 'multipart') return { required: true, content: { 'multipart/form-data': { schema: body.schema } } };
  if (body.type === 'bytes') return { required: body.required, description: body.description, content: { [body.mediaType]: { schema: { type: 'string' as const, format: 'binary', maxLength: body.maxBytes } } } };
  const image = { schema: { type: 'string' as const, format: 'binary', maxLength: body.maxBytes } };
  return { required: true, description: body.description, content: Object.fromEntries(body.mediaTypes.map((type) => [type, image])) };
}

function operation(name: string, route: RouteDefinition): ZodOpenApiOperationObject {
  const note = ACCESS_NOTE[route.access];
  const description = [route.description, note].filter(Boolean).join('\n\n');
  return {
    operationId: name,
    tags: [route.tag],
    summary: route.summary,
    ...(description ? { description } : {}),
    ...(route.access === 'public' ? {} : { security: [{ [SESSION]: [] }] }),
    ...(route.params || route.query || route.headers
      ? {
          requestParams: {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query } : {}),
            ...(route.headers ? { header: route.headers } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: requestBody(route) } : {}),
    ...(route.limit ? { 'x-rate-limit': route.limit } : {}),
    responses: responses(route),
  } as ZodOpenApiOperationObject;
}

/** The OpenAPI 3.1 document of the gateway's HTTP API, generated from the contract's route definitions. */
export function openApiDocument(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const [name, route] of Object.entries(routes) as Array<[string, RouteDefinition]>) {
    const item = (paths[route.path] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[route.method.toLowerCase()] = operation(name, route);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Snap Cracks',
      version: API_VERSION,
      description:
        'The HTTP API of Snap Cracks, a moderated community for photos of unexpected cracks. The web app uses exactly this API. Calls that need an account carry the session cookie set at sign-in (GET /api/login); changes must come from this site (the browser sends Origin). Every error is `{ "message": "…" }`.',
    },
    components: {
      responses: Object.fromEntries(Object.entries(SHARED).map(([name, [, description]]) => [name, { description, content: json(errorBody) }])),
      securitySchemes: {
        [SESSION]: { type: 'apiKey', in: 'cookie', name: 'snapcracks.sid', description: 'The session cookie (`__Host-snapcracks.sid` over https).' },
      },
    },
    tags: [...new Set(Object.values(routes).map((route) => route.tag))].map((name) => ({ name })),
    paths,
  }, { override: withoutNoise });
}

/** zod's rendering of an ISO instant (a long regex beside the format) and of an integer (JavaScript's safe range) says nothing a reader needs. */
function withoutNoise({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
  if (jsonSchema.type === 'integer') {
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  }
}
