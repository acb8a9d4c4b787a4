import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { GOOD_CODE, REFRESH_TOKEN_FROM_CODE, startFakeGoogle, type FakeGoogle } from '../../storage/test/support/fake-google.js';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

/**
 * Issue 18 §4: the storage setup page's Google Drive authorization carries an OAuth `state` bound to the admin's
 * session. Google's consent page is played by the test (it reads the state from the consent URL and comes back with
 * it, as Google does); the code exchange goes to the local stand-in for Google's token endpoint.
 */
let google: FakeGoogle;
let system: Awaited<ReturnType<typeof startTestSystem>>;
beforeAll(async () => {
  google = await startFakeGoogle();
  system = await startTestSystem({ ...google.env, ADMIN_EMAILS: 'drive-admin@example.com,other-admin@example.com' });
});
afterAll(async () => {
  await system?.stop();
  await google?.close();
});

const api = (path: string) => `${system.url}${path}`;
const exchanges = () => google.requests.filter((request) => request.form?.get('grant_type') === 'authorization_code').length;

/** An admin signed in who has accepted the terms, as the setup page needs. */
async function admin(email = 'drive-admin@example.com'): Promise<{ browser: TestBrowser }> {
  const { browser } = await signIn(system.url, email, 'Drive Admin');
  const accepted = await browser.request(api('/api/auth/accept-terms'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: system.url },
    body: JSON.stringify({ hasAcceptedTerms: true }),
  });
  expect(accepted.status).toBe(200);
  return { browser };
}

/** Asks for the consent URL as the setup page does, and answers the state it carries. */
async function startAuthorization(browser: TestBrowser): Promise<string> {
  const response = await browser.get(api('/api/google-drive/auth-url'));
  expect(response.status).toBe(200);
  const { authUrl } = (await response.json()) as { authUrl: string };
  const state = new URL(authUrl).searchParams.get('state');
  expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return state!;
}

/** Google sending the browser back. */
const callback = (browser: TestBrowser, query: Record<string, string>) => browser.get(api(`/api/google-drive/callback?${new URLSearchParams(query)}`));
const tokenIn = (response: Response) => new URL(response.headers.get('location')!, system.url).searchParams.get('token');

describe('Google Drive authorization state', () => {
  it('exchanges the code when the callback brings back the state of this session, once', async () => {
    const { browser } = await admin();
    const state = await startAuthorization(browser);
    const before = exchanges();

    const back = await callback(browser, { code: GOOD_CODE, state });
    expect(back.status).toBe(302);
    expect(tokenIn(back)).toBe(REFRESH_TOKEN_FROM_CODE);
    expect(exchanges()).toBe(before + 1);

    // The same callback again (a replay, or the back button): refused, nothing exchanged.
    const replay = await callback(browser, { code: GOOD_CODE, state });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('Authorization refused');
    expect(exchanges()).toBe(before + 1);
  });

  it('refuses a callback without a state, or with a state it did not issue, changing nothing', async () => {
    const { browser } = await admin();
    const state = await startAuthorization(browser);
    const before = exchanges();
    const forged: Record<string, string>[] = [{ code: GOOD_CODE }, { code: GOOD_CODE, state: 'x'.repeat(43) }, { code: GOOD_CODE, state: '' }, { error: 'access_denied' }];
    for (const query of forged) {
      const refused = await callback(browser, query);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
    }
    expect(exchanges()).toBe(before);
    // The admin's own authorization under way is untouched by the refused ones.
    const back = await callback(browser, { code: GOOD_CODE, state });
    expect(tokenIn(back)).toBe(REFRESH_TOKEN_FROM_CODE);
  });

  it("refuses another session's state: an attacker's callback URL sent to an admin exchanges nothing", async () => {
    const attacker = await admin('other-admin@example.com');
    const attackersState = await startAuthorization(attacker.browser);
    const victim = await admin();
    const victimsState = await startAuthorization(victim.browser);
    const before = exchanges();

    const refused = await callback(victim.browser, { code: GOOD_CODE, state: attackersState });
    expect(refused.status).toBe(400);
    expect(exchanges()).toBe(before);
    // Signed out, there is no session to bind a state to.
    const signedOut = await fetch(api(`/api/google-drive/callback?${new URLSearchParams({ code: GOOD_CODE, state: victimsState })}`), { redirect: 'manual' });
    expect(signedOut.status).toBe(400);
    expect(exchanges()).toBe(before);
  });

  it("passes Google's refusal on to the setup page when the state is right, and spends the state", async () => {
    const { browser } = await admin();
    const state = await startAuthorization(browser);
    const denied = await callback(browser, { error: 'access_denied', state });
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toBe('/google-drive-setup?error=access_denied');
    expect((await callback(browser, { code: GOOD_CODE, state })).status).toBe(400);
  });
});
