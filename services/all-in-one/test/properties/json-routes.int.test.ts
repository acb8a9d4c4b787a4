import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey, pathParameters, REQUEST_PARTS, type CatalogRoute } from './route-catalog.js';
import { bodyArbitrary, jsonSchemaOf, queryArbitrary, segmentArbitrary, validQueryArbitrary, validSegmentArbitrary, validValue, type Body, type Query, type Segment } from './arbitraries.js';
import { describeChanges, type Snapshot } from './state-snapshot.js';
import { propertyParameters, startPropertySystem } from './property-system.js';
import type { Caller } from './world.js';

/**
 * Issue 18 §3: requests generated from each route's own schema — bodies, queries and path parameters, valid, at the
 * limits and hostile — sent by someone signed out, the photo's owner, another member and an admin. Every answer comes
 * within its deadline and is never a 5xx; after any 4xx the services' state is exactly as before (state-snapshot.ts says
 * what counts). The routes are the running gateway's own (route-catalog.ts): a new route is covered without a word here.
 *
 * A failure prints fast-check's seed and path; replay it with PROPERTY_SEED=<seed> PROPERTY_PATH=<path> (and only that
 * route: `-t '<METHOD> <url>'`), and run more with PROPERTY_RUNS (40 per route by default).
 */

/**
 * Routes the schema property leaves out, each with why. The test below fails when one of them no longer exists, so
 * this list cannot go stale; every other route the gateway serves is covered, whatever it is.
 */
const NOT_FUZZED: Record<string, string> = {
  'GET /api/logout': 'ends the caller’s own session (a redirect, not JSON); sign-in.int.test.ts covers it',
  'POST /api/logout': 'the sign-out confirmation’s form: ends the caller’s own session (a redirect); logout.routes.test.ts covers it',
  'GET /*': 'the web app’s files',
  'GET /': 'the web app’s page',
  'GET /index.html': 'the web app’s page',
  'GET /api/uploads/snapcracks-icon.svg': 'a brand image file',
  'GET /uploads/snapcracks-header.svg': 'a brand image file',
  'GET /api/notifications/stream': 'a server-sent event stream held open until the client leaves, not JSON; notifications.int.test.ts covers it',
  'POST /api/resumable-uploads': 'the tus protocol (headers and bytes, not JSON); resumable-uploads.int.test.ts covers it',
  'PATCH /api/resumable-uploads/:id': 'the tus protocol (bytes, not JSON); resumable-uploads.int.test.ts covers it',
  'DELETE /api/resumable-uploads/:id': 'the tus protocol; resumable-uploads.int.test.ts covers it',
  'POST /api/user/data-export':
    'starts a copy of the member’s data that storage stores a moment later, which the state comparison would take for a later request’s change; data-export.int.test.ts covers it',
};

/** Words the product's paths use (gallery filters, admin lists, cleanups, file name shapes), so paths past the schema get hit too. */
const PATH_WORDS = [
  'top-rated',
  'need-your-vote',
  'new-today',
  'new-this-week',
  'new-this-month',
  'all-snaps',
  'pending',
  'all',
  'approved-today',
  'rejected-today',
  'orphaned',
  'rejected',
  `${'0'.repeat(32)}.webp`,
  '00000000-0000-4000-8000-000000000000.webp',
];

/** Every JSON route answers well within this (the gateway's own calls have 5 s deadlines; rendering bars 60 s, on a tiny photo here). */
const DEADLINE_MS = 10_000;

// Started while the file loads, so the tests below can be one per route the gateway registered.
const { system, routes, pool, snapshots, world, stop } = await startPropertySystem();
const fuzzed = routes.filter((route) => !(routeKey(route) in NOT_FUZZED));
/** The settled state before the next request. */
let before: Snapshot;
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  before = await snapshots.settled();
});
afterAll(async () => {
  // What the routes answered, to see at a glance that the runs got past validation and authorization too.
  for (const [route, counts] of statuses) console.log(`${route}: ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  await stop();
});

interface GeneratedRequest {
  caller: number;
  segments: Record<string, Segment>;
  query: Query;
  body: Body;
}

/**
 * A request for the route: a third wholly valid as far as the schemas say (so the routes' work and their refusals past
 * validation get exercised: not found, not yours, not allowed), the rest with every part fuzzed.
 */
function requestArbitrary(route: CatalogRoute): fc.Arbitrary<GeneratedRequest> {
  const [params, querystring, body] = REQUEST_PARTS.map((part) => (route.schema[part] ? jsonSchemaOf(route.schema[part]) : undefined));
  const names = pathParameters(route.url);
  const caller = fc.nat({ max: world.callers.length - 1 });
  const noBody = fc.constant<Body>({ kind: 'none' });
  const valid = fc.record({
    caller,
    segments: fc.record(Object.fromEntries(names.map((name) => [name, validSegmentArbitrary(params?.properties?.[name], name, PATH_WORDS)]))),
    query: validQueryArbitrary(querystring),
    body: body ? validValue(body).map((value): Body => ({ kind: 'json', value })) : noBody,
  });
  const fuzzed = fc.record({
    caller,
    segments: fc.record(Object.fromEntries(names.map((name) => [name, segmentArbitrary(params?.properties?.[name], name, PATH_WORDS)]))),
    query: queryArbitrary(querystring),
    // fetch sends no body with a GET.
    body: route.method === 'GET' ? noBody : bodyArbitrary(body),
  });
  return fc.oneof({ weight: 1, arbitrary: valid }, { weight: 2, arbitrary: fuzzed });
}

function urlOf(route: CatalogRoute, request: GeneratedRequest): string {
  const ids = world.ids();
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const segment = request.segments[name]!;
    return 'text' in segment ? segment.text : encodeURIComponent(ids[segment.known % ids.length]!);
  });
  const query = 'raw' in request.query ? request.query.raw : new URLSearchParams(request.query.pairs).toString();
  return `${system.url}${path}${query ? `?${query}` : ''}`;
}

function initOf(route: CatalogRoute, body: Body): RequestInit {
  const init: RequestInit = { method: route.method, signal: AbortSignal.timeout(DEADLINE_MS + 5_000) };
  if (body.kind === 'json') return { ...init, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body.value) ?? 'null' };
  if (body.kind === 'raw') return { ...init, ...(body.contentType ? { headers: { 'content-type': body.contentType } } : {}), body: body.text };
  return init;
}

/** What a failure message shows of the request: enough to replay it by hand. */
function describeRequest(caller: Caller, route: CatalogRoute, url: string, body: Body): string {
  const shown = body.kind === 'none' ? '' : body.kind === 'json' ? JSON.stringify(body.value) : `${body.contentType}: ${body.text}`;
  return `${caller.name}: ${route.method} ${url.slice(0, 300)} ${shown.slice(0, 300)}`;
}

describe('the routes the properties cover', () => {
  it('are every route the running gateway serves, less the few named with a reason', () => {
    const served = new Set(routes.map(routeKey));
    expect(served.size).toBeGreaterThan(20);
    expect(Object.keys(NOT_FUZZED).filter((key) => !served.has(key))).toEqual([]);
    expect(fuzzed.length + Object.keys(NOT_FUZZED).length).toBe(routes.length);
    // Each part a route validates is one the generators make (params, querystring, body; not headers).
    expect(routes.filter((route) => route.otherParts.length).map(routeKey)).toEqual([]);
  });

  it("generate values each route's schema accepts, not only ones it refuses", () => {
    // Checked against the zod schema itself: refinements the JSON Schema cannot state (e.g. a limit of at most 50)
    // refuse some, so a share is enough; none would mean every request stopped at validation.
    for (const route of routes) {
      for (const [part, schema] of Object.entries(route.schema)) {
        const jsonSchema = jsonSchemaOf(schema);
        // A schema JSON cannot state (the face detector's image body, a z.custom) is "anything": nothing to check.
        if (Object.keys(jsonSchema).every((key) => key === '$schema')) continue;
        const samples = fc.sample(validValue(jsonSchema), { numRuns: 50, seed: 1 });
        const accepted = samples.filter((value) => schema.safeParse(value).success).length;
        expect(accepted, `${routeKey(route)} ${part}`).toBeGreaterThanOrEqual(20);
      }
    }
  });
});

describe('the state the properties compare', () => {
  it("notices a changed field or an extra row, and not the relay's bookkeeping", async () => {
    const start = await snapshots.settled();
    await pool.query(`UPDATE support.contact_forms SET message = message || '!' WHERE id = (SELECT min(id) FROM support.contact_forms)`);
    expect(describeChanges(start, await snapshots.take())).toMatch(/^support\.contact_forms \(1 → 1 rows\)$/);
    await pool.query(`UPDATE support.contact_forms SET message = left(message, -1) WHERE id = (SELECT min(id) FROM support.contact_forms)`);
    expect(describeChanges(start, await snapshots.take())).toBe('');
    // An event announced is a change; the relay marking it published later is not.
    await pool.query(`INSERT INTO vote.outbox (id, type, payload, created_at, published_at) VALUES (gen_random_uuid(), 'test.event', '\\x00', now(), now())`);
    const announced = await snapshots.take();
    expect(describeChanges(start, announced)).toMatch(/^vote\.outbox \(\d+ → \d+ rows\)$/);
    await pool.query(`UPDATE vote.outbox SET published_at = now() + interval '1 second', claimed_until = now() WHERE type = 'test.event'`);
    expect(describeChanges(announced, await snapshots.take())).toBe('');
    await pool.query(`DELETE FROM vote.outbox WHERE type = 'test.event'`);
    before = await snapshots.settled();
  });
});

describe('every JSON route, for every caller, with generated input', () => {
  it.each(fuzzed.map((route) => [routeKey(route), route] as const))(
    '%s: never a 5xx, within its deadline, nothing changed by a 4xx',
    async (key, route) => {
      const counts = new Map<number, number>();
      statuses.set(key, counts);
      const property = fc.asyncProperty(requestArbitrary(route), async (request) => {
        const caller = world.callers[request.caller]!;
        const url = urlOf(route, request);
        const started = Date.now();
        const response = await caller.request(url, initOf(route, request.body));
        await response.arrayBuffer();
        const elapsed = Date.now() - started;
        counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
        const what = describeRequest(caller, route, url, request.body);
        expect(response.status, what).toBeLessThan(500);
        expect(elapsed, what).toBeLessThan(DEADLINE_MS);
        const after = await snapshots.settled(before);
        const changes = describeChanges(before, after);
        // The next run (and fast-check's shrinking, after a failure) starts from here.
        before = after;
        if (response.status >= 400) expect(changes, `${what} → ${response.status} changed state`).toBe('');
        else if (route.method !== 'GET') {
          // A success may have changed the cast (an account disabled, a photo deleted): put it back for the next run.
          await world.repair();
          before = await snapshots.settled();
        }
      });
      await fc.assert(property, propertyParameters<GeneratedRequest>());
    },
    120_000,
  );
});
