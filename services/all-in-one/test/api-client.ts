import { expect } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { signIn } from './sign-in.js';

/** Whatever sends requests as a browser would: a signed-in member's TestBrowser, or `anonymous`. */
export type Client = Pick<TestBrowser, 'request'>;

/** A visitor without a session. */
export const anonymous: Client = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

/** The answer's JSON, once its status is the one expected (a failure shows the body that came instead). */
export async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

/** The `{ message }` of a refusal with `status`. */
export async function message(response: Response, status: number): Promise<string> {
  return (await json<{ message: string }>(response, status)).message;
}

/**
 * The product's API as the tests call it, at the address `baseUrl` answers (known once the system has started): JSON
 * requests, and members signed in through the development identity provider with the terms accepted.
 */
export function productApi(baseUrl: () => string) {
  const send = (client: Client, method: string, path: string, body?: unknown) =>
    client.request(
      `${baseUrl()}${path}`,
      body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
  return {
    send,
    async member(email: string, name: string): Promise<TestBrowser> {
      const { browser } = await signIn(baseUrl(), email, name);
      expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
      return browser;
    },
    idOf: async (client: Client) => (await json<{ id: string }>(await send(client, 'GET', '/api/auth/user'))).id,
  };
}

/** The member's session cookie, as a `cookie` header for any replica of the product they signed in to at `systemUrl`. */
export function sessionCookie(browser: TestBrowser, systemUrl: string): string {
  const name = ['snapcracks.sid', '__Host-snapcracks.sid'].find((n) => browser.cookie(systemUrl, n));
  return `${name}=${browser.cookie(systemUrl, name!)}`;
}

/**
 * The member's session as a client of any replica of `systemUrl`'s product (replicas share the sessions table and its
 * secret; the browser keeps the cookie for the address it signed in at).
 */
export function withSession(browser: TestBrowser, systemUrl: string): Client {
  const cookie = sessionCookie(browser, systemUrl);
  return { request: (url, init = {}) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } }) };
}
