import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, routes, type RouteDefinition } from '@snapcracks/http-contract';
import { fastifyPath } from './contract-route.js';
import { ADMIN, MEMBER, gatewayHarness, type GatewayHarness } from './testing/gateway-harness.js';

const ALL = Object.entries(routes) as Array<[string, RouteDefinition]>;
/** A path of the route with a value in each parameter: access is checked before the values are. */
const SAMPLE_VALUES: Record<string, string> = { id: '7', filter: 'top-rated', list: 'pending', kind: 'orphaned', filename: 'x.webp' };
const urlOf = (route: RouteDefinition) => route.path.replace(/\{(\w+)\}/g, (_all, name: string) => SAMPLE_VALUES[name] ?? 'x');

let harness: GatewayHarness;
beforeAll(async () => {
  harness = await gatewayHarness();
});
afterAll(() => harness.close());

/** The calls the gateway made to services, beside reading the caller's account. */
const serviceCalls = () => harness.calls.filter((call) => !(call.service === 'auth' && call.method === 'getUser'));

describe('the contract and the gateway', () => {
  it.each(ALL)('serves %s at its method and path', (_name, route) => {
    expect(harness.app.hasRoute({ method: route.method, url: fastifyPath(route.path) })).toBe(true);
  });

  it('registers no route but through the contract (contractRoutes)', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const direct = /\b(?:app|route|instance|fastify|typed)\.(?:get|post|put|patch|delete|head|all|route)\(/;
    // The web app's own files (plugins/web.ts) are not API routes; contract-route.ts is where routes are registered.
    const allowed = new Set(['contract-route.ts', join('plugins', 'web.ts')]);
    const offenders = sourceFiles(root)
      .filter((file) => !allowed.has(file) && !file.endsWith('.test.ts') && !file.startsWith('testing'))
      .filter((file) => direct.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe.each(ALL.filter(([, route]) => route.access !== 'public'))('who may call %s', (_name, route) => {
  const request = (cookie?: string) => harness.inject({ method: route.method, url: urlOf(route), ...(cookie ? { cookie } : {}) });
  /** The refusal's `{ message }`; an answer to HEAD has no body. */
  const expectRefusal = (response: { body: string; json(): unknown }, message: string) =>
    route.method === 'HEAD' ? expect(response.body).toBe('') : expect(response.json()).toEqual({ message });

  it('refuses the signed out with 401, asking no service', async () => {
    harness.calls.length = 0;
    const response = await request();
    expect(response.statusCode).toBe(401);
    expectRefusal(response, ERRORS.unauthorized);
    expect(serviceCalls()).toEqual([]);
  });

  it('refuses a disabled account with 403', async () => {
    const cookie = await harness.signIn({ id: 'disabled', hasAcceptedTerms: true });
    harness.account({ id: 'disabled', hasAcceptedTerms: true, isEnabled: false });
    const response = await request(cookie);
    expect(response.statusCode).toBe(403);
    expectRefusal(response, ERRORS.disabled);
    expect(serviceCalls()).toEqual([]);
  });

  if (route.access === 'member' || route.access === 'admin') {
    it('refuses an account that has not accepted the terms with 403', async () => {
      const cookie = await harness.signIn({ id: 'newcomer', hasAcceptedTerms: false, isAdmin: route.access === 'admin' });
      const response = await request(cookie);
      expect(response.statusCode).toBe(403);
      expectRefusal(response, ERRORS.termsRequired);
      expect(serviceCalls()).toEqual([]);
    });
  }

  if (route.access === 'admin') {
    it('refuses a member who is not an admin with 403', async () => {
      const response = await request(await harness.signIn(MEMBER));
      expect(response.statusCode).toBe(403);
      expectRefusal(response, ERRORS.adminOnly);
      expect(serviceCalls()).toEqual([]);
    });
  } else {
    it('lets an admin through', async () => {
      const response = await request(await harness.signIn(ADMIN));
      expect([401, 403]).not.toContain(response.statusCode);
    });
  }
});

function sourceFiles(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
