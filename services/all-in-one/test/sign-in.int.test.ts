import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

let system: Awaited<ReturnType<typeof startTestSystem>>;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(async () => {
  await system?.stop();
});

interface UserJson {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}
const me = async (browser: TestBrowser) => (await (await browser.get(`${system.url}/api/auth/user`)).json()) as UserJson;

describe('sign-in through the development identity provider', () => {
  it('comes back to the page it started from', async () => {
    const { browser, landing, landedAt } = await signIn(system.url, 'returner@example.com', 'Ruth Returner', undefined, '/api/login?returnTo=/dashboard');
    expect(landedAt.href).toBe(`${system.url}/dashboard`);
    expect(landing.status).toBe(200);
    expect(await me(browser)).toMatchObject({ email: 'returner@example.com' });

    const withQuery = await signIn(system.url, 'returner@example.com', 'Ruth Returner', undefined, `/api/login?returnTo=${encodeURIComponent('/admin/users?page=2')}`);
    expect(withQuery.landedAt.href).toBe(`${system.url}/admin/users?page=2`);
  });

  it.each([
    ['another host', '//evil.example/dashboard'],
    ['another host behind a backslash', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['another host behind escapes', '/%2F%2Fevil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['the sign-out route', '/api/logout'],
    ['a very long path', `/${'a'.repeat(1200)}`],
  ])('lands on / when asked to return to %s, still signed in', async (_what, returnTo) => {
    const { browser, landedAt } = await signIn(system.url, 'wary@example.com', 'Wary Member', undefined, `/api/login?returnTo=${encodeURIComponent(returnTo)}`);
    expect(landedAt.href).toBe(`${system.url}/`);
    expect(await me(browser)).toMatchObject({ email: 'wary@example.com' });
  });

  it('keeps the stored name when a later sign-in sends none', async () => {
    const { browser } = await signIn(system.url, 'apple@example.com', 'Ada Lovelace');
    expect(await me(browser)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });

    // An empty name field on the development provider's form sends no name claim, as Sign in with Apple does after the
    // first sign-in.
    for (const name of ['', '   ']) {
      const again = await signIn(system.url, 'apple@example.com', name);
      expect(again.landedAt.href).toBe(`${system.url}/`);
      expect(await me(again.browser)).toMatchObject({ email: 'apple@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    }
    expect(await me(browser)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });

    const renamed = await signIn(system.url, 'apple@example.com', 'Augusta King');
    expect(await me(renamed.browser)).toMatchObject({ firstName: 'Augusta', lastName: 'King' });
  });
});
