import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { IdentityKeyring, IdentitySigner, createServiceClient } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

const TERMS_MESSAGE = 'You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue';

let system: Awaited<ReturnType<typeof startTestSystem>>;
beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
});
afterAll(async () => {
  await system?.stop();
});

interface UserJson {
  id: string;
  hasAcceptedTerms: boolean;
  termsAcceptedAt: string;
}
const read = async <T>(response: Response | Promise<Response>) => (await (await response).json()) as T;

const api = (path: string) => `${system.url}${path}`;
const json = (browser: TestBrowser, path: string, body: unknown, headers: Record<string, string> = {}) =>
  browser.request(api(path), { method: 'POST', headers: { 'content-type': 'application/json', origin: system.url, ...headers }, body: JSON.stringify(body) });

describe('sign-in through the development identity provider', () => {
  it('creates the account at first sign-in and keeps it signed in', async () => {
    const { browser, landing } = await signIn(system.url, 'Ada@Example.com', 'Ada Lovelace');
    expect(landing.status).toBe(200);
    const response = await browser.get(api('/api/auth/user'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      isAdmin: false,
      isEnabled: true,
      hasAcceptedTerms: false,
      displayName: null,
    });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and issues a new session id at sign-in', async () => {
    const browser = new TestBrowser();
    const login = await browser.get(api('/api/login'));
    const before = login.headers.getSetCookie().find((c) => c.startsWith('snapcracks.sid='));
    expect(before).toMatch(/HttpOnly/i);
    expect(before).toMatch(/SameSite=Lax/i);
    await signIn(system.url, 'grace@example.com', 'Grace Hopper', browser);
    const after = browser.cookie(system.url, 'snapcracks.sid');
    expect(after).toBeTruthy();
    expect(before).not.toContain(after!);
  });

  it('makes ADMIN_EMAILS accounts admins', async () => {
    const { browser } = await signIn(system.url, 'boss@example.com', 'The Boss');
    expect(await (await browser.get(api('/api/auth/user'))).json()).toMatchObject({ isAdmin: true });
  });

  it('answers 401 with a JSON message when signed out', async () => {
    const response = await fetch(api('/api/auth/user'));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('signs out, ending the session at the identity provider too', async () => {
    const { browser } = await signIn(system.url, 'leaving@example.com', 'Lea Ving');
    // As a browser sends it when the member clicks Sign Out on our pages.
    const logout = await browser.request(api('/api/logout'), { method: 'GET', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(logout.status).toBe(302);
    expect(new URL(logout.headers.get('location')!).pathname).toContain('session/end');
    expect((await browser.get(api('/api/auth/user'))).status).toBe(401);
  });
});

describe('accepting the terms', () => {
  it('accepts only {hasAcceptedTerms: true}, with the spec message otherwise', async () => {
    const { browser } = await signIn(system.url, 'terms@example.com', 'Terry Terms');
    for (const body of [{ hasAcceptedTerms: false }, {}, { hasAcceptedTerms: 'yes' }, null]) {
      const refused = await json(browser, '/api/auth/accept-terms', body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ message: TERMS_MESSAGE });
    }
    const broken = await browser.request(api('/api/auth/accept-terms'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: system.url },
      body: '{"hasAcceptedTerms": tru',
    });
    expect(broken.status).toBe(400);
    expect((await read<UserJson>(browser.get(api('/api/auth/user')))).hasAcceptedTerms).toBe(false);

    const accepted = await json(browser, '/api/auth/accept-terms', { hasAcceptedTerms: true });
    expect(accepted.status).toBe(200);
    const user = await read<UserJson>(accepted);
    expect(user.hasAcceptedTerms).toBe(true);
    expect(Date.parse(user.termsAcceptedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('needs a signed-in user', async () => {
    const response = await fetch(api('/api/auth/accept-terms'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hasAcceptedTerms: true }),
    });
    expect(response.status).toBe(401);
  });

  it('refuses a cross-site request even with a valid session', async () => {
    const { browser } = await signIn(system.url, 'victim@example.com', 'Vic Tim');
    const forged = await json(browser, '/api/auth/accept-terms', { hasAcceptedTerms: true }, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((await read<UserJson>(browser.get(api('/api/auth/user')))).hasAcceptedTerms).toBe(false);
  });
});

describe('a disabled account', () => {
  it('loses its sessions at once and cannot sign in again', async () => {
    const { browser } = await signIn(system.url, 'mallory@example.com', 'Mallory Bad');
    const me = await read<UserJson>(browser.get(api('/api/auth/user')));
    const { browser: adminBrowser } = await signIn(system.url, 'boss@example.com', 'The Boss');
    const admin = await read<UserJson>(json(adminBrowser, '/api/auth/accept-terms', { hasAcceptedTerms: true }));

    const auth = createServiceClient(AuthServiceClient, system.platform.addresses.auth!, { signer: new IdentitySigner(TEST_IDENTITY, 'gateway'), peer: 'auth' });
    await auth.call.updateUser({ id: me.id, isEnabled: false }, { caller: { userId: admin.id, isAdmin: true, hasAcceptedTerms: true } });
    auth.close();

    await expect.poll(async () => (await browser.get(api('/api/auth/user'))).status, { timeout: 10_000 }).toBe(403);
    const refused = await browser.get(api('/api/auth/user'));
    expect((await read<{ message: string }>(refused)).message).toMatch(/disabled/);
    const again = await signIn(system.url, 'mallory@example.com', 'Mallory Bad');
    expect(again.landing.status).toBe(403);
    expect(await again.landing.text()).toContain('Account disabled');
  });
});

describe('service trust boundary', () => {
  it('refuses a forged caller identity', async () => {
    const forger = createServiceClient(AuthServiceClient, system.platform.addresses.auth!, { signer: new IdentitySigner(IdentityKeyring.generate(), 'gateway'), peer: 'auth' });
    await expect(forger.call.listUsers({}, { caller: { userId: 'x', isAdmin: true, hasAcceptedTerms: true } })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    forger.close();
  });

  it('lets only the gateway provision accounts', async () => {
    const other = createServiceClient(AuthServiceClient, system.platform.addresses.auth!, { signer: new IdentitySigner(TEST_IDENTITY, 'photo'), peer: 'auth' });
    await expect(other.call.signIn({ issuer: 'x', subject: 'y', emailVerified: false }, { caller: null })).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
    other.close();
  });
});

describe('HTTP surface', () => {
  it('serves health and readiness', async () => {
    expect((await fetch(api('/healthz'))).status).toBe(200);
    const ready = await fetch(api('/readyz'));
    expect(ready.status).toBe(200);
    // Ready or not, nothing more: which service is down is on the internal port (/readyz/detail).
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('answers unknown API paths with a JSON 404 and other paths with the app', async () => {
    const missing = await fetch(api('/api/no-such-thing'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found' });
    const page = await fetch(api('/some/deep/link'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('sends security headers, with a CSP that allows exactly the inline theme script', async () => {
    const response = await fetch(api('/'));
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the brand images under the paths the spec gives', async () => {
    expect((await fetch(api('/api/uploads/snapcracks-icon.svg'))).headers.get('content-type')).toContain('image/svg+xml');
    expect((await fetch(api('/uploads/snapcracks-header.svg'))).status).toBe(200);
  });
});
