import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayHarness, sessionCookie, type GatewayHarness } from '../testing/gateway-harness.js';

const IDP = 'http://idp.test/authorize';

let harness: GatewayHarness;
let finish: () => Promise<unknown>;

beforeEach(async () => {
  finish = () => Promise.resolve({ claims: { issuer: 'http://idp.test', subject: 'ada', emailVerified: true }, idToken: 'id.token' });
  harness = await gatewayHarness({
    oidc: { finishSignIn: () => finish() as never },
    services: { auth: { signIn: () => ({ user: { id: 'user-1', isEnabled: true }, created: false }) } },
  });
});
afterEach(() => harness.close());

/** Starts a sign-in with `query` as sent (already encoded), comes back from the provider, and answers both replies. */
async function signIn(query: string) {
  const login = await harness.inject({ method: 'GET', url: `/api/login${query}` });
  // What the session kept for the callback: the server's row, not the browser's cookie.
  const kept = [...harness.sessions.rows.values()].map((row) => row.pendingSignIn?.returnTo);
  const callback = await harness.inject({ method: 'GET', url: '/api/callback?code=c&state=state', cookie: sessionCookie(login) });
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
