import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { PRODUCTION_REFUSAL, startDevIdentityProvider, type RunningDevIdentityProvider } from './index.js';
import { parseForm, TestBrowser } from './test-support/browser.js';

// The redirect URIs belong to the app; nothing listens there, the browser stops before fetching them.
const CLIENT_ID = 'snapcracks-test';
const CLIENT_SECRET = randomBytes(24).toString('base64url');
const REDIRECT_URI = 'http://localhost:8080/api/callback';
const POST_LOGOUT_REDIRECT_URI = 'http://localhost:8080/';

let idp: RunningDevIdentityProvider;
let config: oidc.Configuration;

beforeAll(async () => {
  idp = await startDevIdentityProvider({
    port: 0,
    clients: [
      { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_REDIRECT_URI] },
    ],
  });
  // Plain http is only acceptable because this is the loopback development provider.
  config = await oidc.discovery(new URL(idp.issuer), CLIENT_ID, CLIENT_SECRET, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
});

afterAll(async () => {
  await idp?.close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const isCallback = (url: URL) => url.href.startsWith(REDIRECT_URI);

/** Starts an authorization request the way the gateway does: code flow, PKCE (S256), state and nonce. */
async function beginAuthorization(browser: TestBrowser) {
  const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const hop = await browser.followRedirects(authorizationUrl, await browser.get(authorizationUrl), isCallback);
  return { hop, checks: { pkceCodeVerifier, expectedState: state, expectedNonce: nonce } };
}

/** Fetches the sign-in page the authorization request led to and checks it is the form. */
async function openSignInPage(browser: TestBrowser) {
  const { hop, checks } = await beginAuthorization(browser);
  expect(hop.url.pathname).toMatch(/^\/interaction\/[\w-]+$/);
  const page = await browser.get(hop.url);
  expect(page.status).toBe(200);
  return { signInUrl: hop.url, html: await page.text(), checks };
}

/** The whole sign-in as a person would do it, ending with the app's code exchange. */
async function signIn(browser: TestBrowser, email: string, name: string) {
  const { signInUrl, checks } = await openSignInPage(browser);
  const submitted = await browser.postForm(signInUrl, { email, name });
  expect(submitted.status).toBe(303);
  const { url: callbackUrl } = await browser.followRedirects(signInUrl, submitted, isCallback);
  expect(isCallback(callbackUrl)).toBe(true);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, checks);
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token claims');
  return { tokens, claims };
}

describe('development identity provider', () => {
  it('advertises a loopback issuer with the code flow, S256 PKCE and the profile scopes', () => {
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(idp.issuer);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
    expect(metadata.end_session_endpoint).toBeDefined();
  });

  it('shows an accessible sign-in form with email and name inputs', async () => {
    const { html } = await openSignInPage(new TestBrowser());
    expect(html).toContain('<title>Snap Cracks — development sign-in</title>');
    expect(html).toContain('local development identity provider');
    expect(html).toMatch(/<label for="email">/);
    expect(html).toMatch(/<input id="email" name="email" type="email" required/);
    expect(html).toMatch(/<label for="name">/);
    expect(html).toMatch(/<input id="name" name="name" type="text"/);
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
  });

  it('signs in as the typed email with the name split into given and family name, without a consent step', async () => {
    const { claims } = await signIn(new TestBrowser(), 'ada@example.com', 'Ada King Lovelace');
    expect(claims).toMatchObject({
      iss: idp.issuer,
      aud: CLIENT_ID,
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada King Lovelace',
      given_name: 'Ada',
      family_name: 'King Lovelace',
    });
    expect(claims.sub).toMatch(/^[0-9a-f]{32}$/);
  });

  it('gives the same subject to the same email regardless of case and spaces, and another to another email', async () => {
    const first = await signIn(new TestBrowser(), 'grace@example.com', 'Grace Hopper');
    const again = await signIn(new TestBrowser(), '  Grace@Example.COM ', 'Grace');
    const other = await signIn(new TestBrowser(), 'alan@example.com', 'Alan Turing');

    expect(again.claims.sub).toBe(first.claims.sub);
    expect(again.claims.email).toBe('grace@example.com');
    expect(again.claims.given_name).toBe('Grace');
    expect(again.claims.family_name).toBeUndefined();
    expect(other.claims.sub).not.toBe(first.claims.sub);
  });

  it('lets a signed-in browser through to the app again without the form', async () => {
    const browser = new TestBrowser();
    const { claims } = await signIn(browser, 'linus@example.com', 'Linus');
    const { hop, checks } = await beginAuthorization(browser);
    expect(isCallback(hop.url)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(config, hop.url, checks);
    expect(tokens.claims()?.sub).toBe(claims.sub);
  });

  it('answers a blank email with 400 and the form again, showing the error', async () => {
    const browser = new TestBrowser();
    const { signInUrl } = await openSignInPage(browser);
    const response = await browser.postForm(signInUrl, { email: '   ', name: 'Nobody' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/name="email"/);
    expect(html).toMatch(/name="name"/);
    expect(html).toContain('Enter an email address.');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('value="Nobody"');

    // The same pending sign-in still works after the mistake.
    const retry = await browser.postForm(signInUrl, { email: 'nobody@example.com', name: 'Nobody' });
    expect(retry.status).toBe(303);
  });

  it('refuses an email without "@" and escapes what was typed', async () => {
    const browser = new TestBrowser();
    const { signInUrl } = await openSignInPage(browser);
    const response = await browser.postForm(signInUrl, { email: '<b>oops"', name: '<script>alert(1)</script>' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Enter an email address like name@example.com.');
    expect(html).toContain('value="&lt;b&gt;oops&quot;"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('says the sign-in expired when the interaction cookie is missing', async () => {
    const { signInUrl } = await openSignInPage(new TestBrowser());
    const response = await new TestBrowser().get(signInUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Sign-in expired');
  });

  it('ends the session and returns to the post-logout URI without asking for confirmation', async () => {
    const browser = new TestBrowser();
    const { tokens } = await signIn(browser, 'margaret@example.com', 'Margaret Hamilton');
    const state = oidc.randomState();
    const endSessionUrl = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI,
      state,
    });

    // oidc-provider always ends a session with a POST; the page submits its form by itself.
    const page = await browser.get(endSessionUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('document.forms[0].submit()');
    expect(html).not.toMatch(/Do you want to sign-out|stay signed in/i);
    const { action, fields } = parseForm(html, endSessionUrl);
    expect(fields).toMatchObject({ logout: 'yes' });

    const confirmed = await browser.postForm(action, fields);
    expect(confirmed.status).toBe(303);
    const location = new URL(confirmed.headers.get('location') ?? '', action);
    expect(location.origin + location.pathname).toBe(POST_LOGOUT_REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);

    // The session is gone: the next authorization asks for an email again.
    const { hop } = await beginAuthorization(browser);
    expect(hop.url.pathname).toMatch(/^\/interaction\//);
  });

  it('rejects an authorization request without PKCE', async () => {
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state: oidc.randomState() });
    const response = await new TestBrowser().get(url);
    const location = new URL(response.headers.get('location') ?? '', url);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });
});

describe('startDevIdentityProvider guards', () => {
  it('refuses to start when NODE_ENV=production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    await expect(startDevIdentityProvider({ port: 0, clients: [] })).rejects.toThrow(PRODUCTION_REFUSAL);
    expect(PRODUCTION_REFUSAL).toBe(
      'The development identity provider must not run in production (NODE_ENV=production). Set OIDC_ISSUER to a real provider.',
    );
  });

  it('refuses a client with an invalid redirect URI at start', async () => {
    await expect(
      startDevIdentityProvider({
        clients: [{ clientId: 'bad', clientSecret: 'y', redirectUris: ['not a url'], postLogoutRedirectUris: [] }],
      }),
    ).rejects.toThrow(/Invalid client "bad": redirect_uris must only contain valid uris/);
  });

  it('refuses to listen beyond loopback', async () => {
    await expect(
      startDevIdentityProvider({
        host: '0.0.0.0',
        clients: [{ clientId: 'x', clientSecret: 'y', redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [] }],
      }),
    ).rejects.toThrow(/loopback/);
  });
});
