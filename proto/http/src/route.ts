import type { z } from 'zod';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route; the gateway checks it before looking at the input, so the signed out get 401 and members 403
 * whatever they sent.
 * - `public`: anyone;
 * - `signedIn`: a signed-in, enabled account, terms accepted or not (the current user, accepting the terms);
 * - `member`: signed in, enabled, terms accepted (every product feature);
 * - `admin`: a member with the admin flag.
 */
export type Access = 'public' | 'signedIn' | 'member' | 'admin';

/**
 * The rate limit a route counts against, beside the limit every address has on the whole API: per client address
 * (`signIn`, `contact`) or per signed-in member (the rest). Settings: `RATE_LIMIT_*` in the README.
 */
export type LimitName = 'signIn' | 'contact' | 'uploads' | 'votes' | 'avatars' | 'faceSuggestions' | 'reports';

/** What a request carries. A multipart form and an image are streamed by the gateway: their schemas document them. */
export type RequestBody =
  | { type: 'json'; schema: z.ZodType }
  | { type: 'multipart'; schema: z.ZodType }
  | { type: 'image'; schema: z.ZodType; mediaTypes: readonly string[]; maxBytes: number; description: string }
  /** Raw bytes handed to a protocol handler as they arrive (a tus upload's chunk); optional where the protocol allows none. */
  | { type: 'bytes'; mediaType: string; maxBytes: number; required: boolean; description: string };

/** What a successful request answers. */
export type Success =
  | { status: 200 | 201 | 202; json: z.ZodType; description: string }
  | { status: 204; description: string }
  | { status: 302 | 303; description: string }
  | { status: 200; html: string }
  | { status: 200; image: string }
  /** A file to save (`content-disposition: attachment`), streamed. */
  | { status: 200; file: { mediaType: string; description: string } }
  /** Server-sent events (text/event-stream), held open: the description says which events. */
  | { status: 200; eventStream: string }
  /** A protocol's answer (tus): no body, what it says is in these response headers. */
  | { status: 200 | 201 | 204; description: string; headers: Readonly<Record<string, string>> };

export type ErrorStatus = 400 | 404 | 409 | 410 | 412 | 413 | 415 | 429 | 503;

export interface RouteDefinition {
  method: Method;
  /** OpenAPI style: `/api/photos/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  limit?: LimitName;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** Request headers a protocol route reads (tus): documented; the protocol's handler checks them. */
  headers?: z.ZodObject;
  body?: RequestBody;
  ok: Success;
  /** The route's own refusals beyond the ones every route shares (bad input, access, rate limits, outages). */
  errors?: Partial<Record<ErrorStatus, string | { description: string; json: z.ZodType } | { description: string; html: true }>>;
  /** Answers other than the success and the errors: a 304 to a revalidation, a redirect. */
  also?: Partial<Record<301 | 302 | 303 | 304, string>>;
  /** Answers the gateway sends as bytes it serialized before (cached public pages, this document): not re-validated on the way out. */
  preserialized?: true;
}

/** Keeps each definition's exact type, so the gateway's handlers are typed by the schemas they were given. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}
