import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayHarness, type GatewayHarness } from '../testing/gateway-harness.js';

const OWN = 'http://snapcracks.test';
const END_SESSION = 'http://idp.test/session/end';

let harness: GatewayHarness;
beforeAll(async () => {
  harness = await gatewayHarness({ publicUrl: OWN, oidc: { endSessionUrl: () => Promise.resolve(new URL(END_SESSION)) } });
});
afterAll(() => harness.close());

let cookie: string;
beforeEach(async () => {
  harness.sessions.rows.clear();
  cookie = await harness.signIn({ id: 'user-1' });
  expect(signedIn()).toBe(true);
});

const signedIn = () => [...harness.sessions.rows.values()].some((row) => row.userId === 'user-1');
const logout = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') =>
  harness.inject({ method, url: '/api/logout', headers: { cookie, ...headers } });

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
