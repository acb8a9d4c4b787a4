import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Clients } from '../clients.js';
import type { OidcRelyingParty, PendingSignIn } from '../oidc.js';
import { MemorySessionStore } from '../testing/memory-session-store.js';
import type { UserDirectory } from '../user-directory.js';
import session, { SESSION_COOKIE } from '../plugins/session.js';
import authRoutes from './auth.routes.js';

const IDP = 'https://idp.example/authorize';

let store: MemorySessionStore;
let app: FastifyInstance;
let finish: () => Promise<unknown>;

beforeEach(async () => {
  store = new MemorySessionStore();
  finish = () => Promise.resolve({ claims: { issuer: 'https://idp.example', subject: 'ada', emailVerified: true }, idToken: 'id.token' });
  const oidc = {
    startSignIn: (redirectUri: string) => {
      const pending: PendingSignIn = { codeVerifier: 'verifier', state: 'state', nonce: 'nonce', redirectUri };
      return Promise.resolve({ url: new URL(`${IDP}?state=state`), pending });
    },
    finishSignIn: () => finish(),
  } as unknown as OidcRelyingParty;
  const user: Partial<User> = { id: 'user-1', isEnabled: true };
  const clients = { auth: { call: { signIn: () => Promise.resolve({ user, created: false }) } } } as unknown as Clients;
  const users = { remember: () => undefined } as unknown as UserDirectory;
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(session, { secret: 'a test secret of at least thirty-two characters', store, maxAgeMs: 3_600_000 });
  await app.register(authRoutes, { clients, oidc, users, publicUrl: 'http://localhost' });
  await app.ready();
});
afterEach(async () => {
  await app.close();
});

const cookieOf = (response: LightMyRequestResponse) => {
  const headers = [response.headers['set-cookie'] ?? []].flat();
  return headers.find((header) => header.startsWith(`${SESSION_COOKIE}=`))?.split(';')[0];
};

/** Starts a sign-in with `query` as sent (already encoded), comes back from the provider, and answers both replies. */
async function signIn(query: string) {
  const login = await app.inject({ method: 'GET', url: `/api/login${query}` });
  // What the session kept for the callback: the server's row, not the browser's cookie.
  const kept = [...store.rows.values()].map((row) => row.pendingSignIn?.returnTo);
  const cookie = cookieOf(login);
  const callback = await app.inject({ method: 'GET', url: '/api/callback?code=c&state=state', headers: cookie ? { cookie } : {} });
  return { login, kept, callback };
}

describe('returning to the page sign-in started from', () => {
  it.each([
    ['?returnTo=/dashboard', '/dashboard'],
    ['?returnTo=%2Fdashboard', '/dashboard'],
    ['?returnTo=%2Fadmin%2Fusers%3Fpage%3D2%26q%3Dada', '/admin/users?page=2&q=ada'],
    ['?returnTo=/legal%23privacy', '/legal'],
  ])('GET /api/login%s comes back to %s, kept with the pending sign-in', async (query, path) => {
    const { login, kept, callback } = await signIn(query);
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe(`${IDP}?state=state`);
    expect(kept).toEqual([path]);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(path);
  });

  it.each([
    ['no returnTo', ''],
    ['an empty one', '?returnTo='],
    ['a host', '?returnTo=//evil.com'],
    ['a host behind an escaped slash', `?returnTo=${encodeURIComponent('/\\evil.com')}`],
    ['a host behind a raw backslash', '?returnTo=/\\evil.com'],
    ['an absolute URL', `?returnTo=${encodeURIComponent('https://evil.com')}`],
    ['a scheme-relative path behind escapes', `?returnTo=${encodeURIComponent('/%2F%2Fevil.com')}`],
    ['a javascript: URL', `?returnTo=${encodeURIComponent('javascript:alert(document.cookie)')}`],
    ['a header split', `?returnTo=${encodeURIComponent('/x\r\nLocation: https://evil.com')}`],
    ['a very long path', `?returnTo=/${'a'.repeat(1000)}`],
    ['the sign-out route', '?returnTo=/api/logout'],
    ['the sign-in route', `?returnTo=${encodeURIComponent('/api/login?returnTo=/dashboard')}`],
    ['two values', '?returnTo=/dashboard&returnTo=/profile'],
  ])('ignores %s and lands on /, never refusing the sign-in', async (_what, query) => {
    const { login, kept, callback } = await signIn(query);
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe(`${IDP}?state=state`);
    expect(kept).toEqual([undefined]);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/');
  });

  it('offers to try again towards the same page when the provider fails the sign-in', async () => {
    finish = () => Promise.reject(new Error('invalid_grant'));
    const { callback } = await signIn('?returnTo=/dashboard');
    expect(callback.statusCode).toBe(400);
    expect(callback.body).toContain('href="/api/login?returnTo=%2Fdashboard"');
  });
});
