import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Clients } from '../clients.js';
import type { OidcRelyingParty, PendingSignIn } from '../oidc.js';
import { MemorySessionStore } from '../testing/memory-session-store.js';
import type { UserDirectory } from '../user-directory.js';
import { loadGatewayConfig } from '../config.js';
import errors from '../plugins/errors.js';
import security from '../plugins/security.js';
import session, { SESSION_COOKIE } from '../plugins/session.js';
import authRoutes from './auth.routes.js';

const OWN = 'http://snapcracks.test';
const END_SESSION = 'http://idp.test/session/end';

const store = new MemorySessionStore();
let app: FastifyInstance;

beforeAll(async () => {
  const oidc = {
    issuerOrigin: 'http://idp.test',
    startSignIn: (redirectUri: string) => {
      const pending: PendingSignIn = { codeVerifier: 'verifier', state: 'state', nonce: 'nonce', redirectUri };
      return Promise.resolve({ url: new URL('http://idp.test/authorize?state=state'), pending });
    },
    finishSignIn: () => Promise.resolve({ claims: { issuer: 'http://idp.test', subject: 'ada', emailVerified: true }, idToken: 'id.token' }),
    endSessionUrl: () => Promise.resolve(new URL(END_SESSION)),
  } as unknown as OidcRelyingParty;
  const user: Partial<User> = { id: 'user-1', isEnabled: true };
  const clients = { auth: { call: { signIn: () => Promise.resolve({ user, created: false }) } } } as unknown as Clients;
  const users = { remember: () => undefined } as unknown as UserDirectory;
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errors);
  await app.register(security, {
    allowedOrigins: [OWN],
    scriptSources: [],
    identityProviderOrigin: 'http://idp.test',
    rateLimits: loadGatewayConfig({ NODE_ENV: 'test' }).rateLimits,
    development: false,
  });
  await app.register(session, { secret: 'a test secret of at least thirty-two characters', store, maxAgeMs: 3_600_000 });
  await app.register(authRoutes, { clients, oidc, users, publicUrl: OWN });
  await app.ready();
});
afterAll(() => app.close());

let cookie: string;
beforeEach(async () => {
  store.rows.clear();
  const login = await app.inject({ method: 'GET', url: '/api/login' });
  const callback = await app.inject({ method: 'GET', url: '/api/callback?code=c&state=state', headers: { cookie: cookieOf(login)! } });
  cookie = cookieOf(callback)!;
  expect(signedIn()).toBe(true);
});

function cookieOf(response: LightMyRequestResponse): string | undefined {
  return [response.headers['set-cookie'] ?? []].flat().find((header) => header.startsWith(`${SESSION_COOKIE}=`))?.split(';')[0];
}
const signedIn = () => [...store.rows.values()].some((row) => row.userId === 'user-1');
const logout = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') =>
  app.inject({ method, url: '/api/logout', headers: { cookie, ...headers } });

describe('GET /api/logout from the product’s own pages', () => {
  it.each([
    ['a link or redirect on our pages (Sec-Fetch-Site: same-origin)', { 'sec-fetch-site': 'same-origin' }],
    ['the address typed or bookmarked (Sec-Fetch-Site: none)', { 'sec-fetch-site': 'none' }],
    ['an older browser with our Referer', { referer: `${OWN}/settings` }],
  ])('ends the session on %s', async (_what, headers) => {
    const response = await logout(headers);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(END_SESSION);
    expect(signedIn()).toBe(false);
  });
});

describe('GET /api/logout started by another site', () => {
  it.each([
    ['a cross-site link, image or form', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    ['another origin in the Referer of an older browser', { referer: 'https://evil.example/page' }],
    ['no signal at all (referrer stripped, older browser)', {}],
    ['our Referer contradicted by Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site', referer: `${OWN}/` }],
  ])('does not end the session on %s: a page asks to confirm with a form', async (_what, headers) => {
    const response = await logout(headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('<form method="post" action="/api/logout">');
    expect(response.body).toContain('href="/"');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(signedIn()).toBe(true);
  });
});

describe('POST /api/logout (the confirmation page’s button)', () => {
  it('ends the session when the form was posted from our origin, then sends the browser on to the provider', async () => {
    const response = await logout(
      { origin: OWN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
      'POST',
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(END_SESSION);
    expect(signedIn()).toBe(false);
  });

  it('is refused, changing nothing, when another site posts it', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const response = await logout({ ...headers, 'content-type': 'application/x-www-form-urlencoded' }, 'POST');
      expect(response.statusCode).toBe(403);
      expect(signedIn()).toBe(true);
    }
  });
});
