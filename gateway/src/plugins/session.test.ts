import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionData, SessionStore } from '../session-store.js';
import session, { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './session.js';
import { SessionCookies } from './session-cookie.js';

const SECRET = 'a test secret of at least thirty-two characters';
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const pending = { codeVerifier: 'verifier', state: 'state', nonce: 'nonce', redirectUri: 'http://localhost/api/callback' };

/** Sessions in memory, counting what the plugin asks of them; `reuse` plays the store's reuse window. */
class MemoryStore implements SessionStore {
  readonly rows = new Map<string, SessionData>();
  readonly calls = { recent: 0, get: 0, set: 0, destroy: 0 };
  reuse = false;

  recent(sid: string): Readonly<SessionData> | undefined {
    this.calls.recent += 1;
    return this.reuse ? this.frozen(sid) : undefined;
  }
  get(sid: string): Promise<Readonly<SessionData> | null> {
    this.calls.get += 1;
    return Promise.resolve(this.frozen(sid) ?? null);
  }
  set(sid: string, data: SessionData): Promise<void> {
    this.calls.set += 1;
    this.rows.set(sid, JSON.parse(JSON.stringify(data)) as SessionData);
    return Promise.resolve();
  }
  destroy(sid: string): Promise<void> {
    this.calls.destroy += 1;
    this.rows.delete(sid);
    return Promise.resolve();
  }
  writes(): number {
    return this.calls.set + this.calls.destroy;
  }
  private frozen(sid: string): Readonly<SessionData> | undefined {
    const row = this.rows.get(sid);
    return row && Object.freeze(structuredClone(row));
  }
}

let store: MemoryStore;
let app: FastifyInstance;

async function build(secret = SECRET): Promise<FastifyInstance> {
  const built = Fastify({ trustProxy: true });
  built.addHook('onRequest', async (request, reply) => {
    // Answers before the session plugin's own hook, as the rate limit or the cross-site check do.
    if (request.headers['x-refuse']) return reply.code(429).send({ message: 'slow down' });
  });
  await built.register(session, { secret, store, maxAgeMs: MAX_AGE_MS });
  built.get('/me', async (request) => ({ ...request.session }));
  built.get('/start', async (request) => {
    request.session.pendingSignIn = pending;
    return {};
  });
  built.get('/sign-in', async (request) => {
    await request.session.regenerate();
    request.session.userId = 'user-1';
    request.session.signedInAt = 1_700_000_000_000;
    request.session.idToken = 'id.token';
    return {};
  });
  built.get('/sign-in-abandoned', async (request) => {
    await request.session.regenerate();
    return {};
  });
  built.get('/same', async (request) => {
    request.session.userId = request.session.userId; // eslint-disable-line no-self-assign
    request.session.pendingSignIn = request.session.pendingSignIn; // eslint-disable-line no-self-assign
    return {};
  });
  built.get('/forget-pending', async (request) => {
    delete request.session.pendingSignIn;
    return {};
  });
  built.get('/logout', async (request) => {
    await request.session.destroy();
    return { after: request.session.userId ?? null };
  });
  built.get('/fail', async (request) => {
    request.session.idToken = 'kept anyway';
    throw new Error('boom');
  });
  await built.ready();
  return built;
}

beforeEach(async () => {
  store = new MemoryStore();
  app = await build();
});
afterEach(async () => {
  await app.close();
});

function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const headers = response.headers['set-cookie'];
  const all = headers === undefined ? [] : Array.isArray(headers) ? headers : [headers];
  const ours = all.filter((header) => header.startsWith(`${SESSION_COOKIE}=`));
  expect(ours.length).toBeLessThanOrEqual(1);
  return ours[0];
}
const valueOf = (header: string | undefined) => header?.slice(SESSION_COOKIE.length + 1).split(';')[0];
const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: cookie === undefined ? headers : { cookie: `${SESSION_COOKIE}=${cookie}`, ...headers } });
const me = async (cookie?: string) => (await get('/me', cookie)).json<SessionData>();
const isCleared = (header: string | undefined) => Boolean(header?.startsWith(`${SESSION_COOKIE}=;`) && /Max-Age=0/.test(header));

/** Signs in (a pending sign-in, then the callback) and answers the signed-in session's cookie value. */
async function signIn(): Promise<string> {
  const started = valueOf(sessionCookie(await get('/start')))!;
  return valueOf(sessionCookie(await get('/sign-in', started)))!;
}

describe('the session plugin', () => {
  it('gives a new visitor an empty session, and neither a cookie nor a row', async () => {
    const response = await get('/me');
    expect(response.json()).toEqual({});
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(store.rows.size).toBe(0);
    expect(store.calls).toEqual({ recent: 0, get: 0, set: 0, destroy: 0 });
  });

  it('creates one row and an HttpOnly, SameSite=Lax cookie for the whole maximum once something is stored', async () => {
    const before = Date.now();
    const response = await get('/start');
    const header = sessionCookie(response)!;
    expect(store.rows.size).toBe(1);
    expect(store.calls.set).toBe(1);
    const [id, data] = [...store.rows][0]!;
    expect(data).toEqual({ pendingSignIn: pending });
    // The signature's + and / percent-encoded, as @fastify/cookie wrote them (the cookie package's serialize).
    expect(header).toMatch(new RegExp(`^${SESSION_COOKIE}=${id}\\.(?:[A-Za-z0-9]|%2B|%2F){43}; Path=/; Expires=[^;]+; HttpOnly; SameSite=Lax$`));
    expect(header).not.toMatch(/Secure/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(header)![1]!);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + MAX_AGE_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + MAX_AGE_MS);
    // The value is what @fastify/cookie's Signer makes of the id with the secret.
    expect(new SessionCookies(SECRET).idOf(decodeURIComponent(valueOf(header)!))).toBe(id);
  });

  describe('over TLS, directly or through a trusted proxy', () => {
    const overHttps = { 'x-forwarded-proto': 'https' };
    const setCookies = (response: LightMyRequestResponse) => [response.headers['set-cookie'] ?? []].flat();
    const secureCookie = (response: LightMyRequestResponse) => setCookies(response).find((header) => header.startsWith(`${SECURE_SESSION_COOKIE}=`));
    const getSecure = (url: string, cookies: string) => app.inject({ method: 'GET', url, headers: { ...overHttps, cookie: cookies } });

    it('names the cookie with the __Host- prefix: Secure, Path=/, no Domain', async () => {
      const response = await get('/start', undefined, overHttps);
      const header = secureCookie(response)!;
      expect(SECURE_SESSION_COOKIE).toBe('__Host-snapcracks.sid');
      expect(header).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=[^;]+; Path=/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$`));
      expect(header).not.toMatch(/Domain=/i);
      expect(sessionCookie(response)).toBeUndefined();
    });

    it('reads the prefixed cookie, and clears it Secure when it names no session', async () => {
      const value = secureCookie(await get('/sign-in', undefined, overHttps))!.slice(SECURE_SESSION_COOKIE.length + 1).split(';')[0]!;
      expect((await getSecure('/me', `${SECURE_SESSION_COOKIE}=${value}`)).json()).toMatchObject({ userId: 'user-1' });
      const cleared = secureCookie(await getSecure('/me', `${SECURE_SESSION_COOKIE}=garbage`))!;
      expect(cleared).toMatch(/^__Host-snapcracks\.sid=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
    });

    it('ignores a plain snapcracks.sid, which a neighbouring site could have planted', async () => {
      const planted = await signIn();
      const response = await getSecure('/me', `${SESSION_COOKIE}=${planted}`);
      expect(response.json()).toEqual({});
      expect(setCookies(response)).toEqual([]);
    });

    it('over plain http keeps the plain name and ignores a prefixed cookie', async () => {
      const value = secureCookie(await get('/sign-in', undefined, overHttps))!.slice(SECURE_SESSION_COOKIE.length + 1).split(';')[0]!;
      const response = await app.inject({ method: 'GET', url: '/me', headers: { cookie: `${SECURE_SESSION_COOKIE}=${value}` } });
      expect(response.json()).toEqual({});
      expect(sessionCookie(await get('/start'))).toMatch(/^snapcracks\.sid=/);
    });
  });

  it('answers a repeat request from its cookie without writing anything', async () => {
    const cookie = await signIn();
    const writes = store.writes();
    for (let i = 0; i < 3; i += 1) {
      const response = await get('/me', cookie);
      expect(response.json()).toEqual({ userId: 'user-1', signedInAt: 1_700_000_000_000, idToken: 'id.token' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(store.writes()).toBe(writes);
    // Within the store's reuse window, not even a read.
    store.reuse = true;
    const reads = store.calls.get;
    expect(await me(cookie)).toMatchObject({ userId: 'user-1' });
    expect(store.calls.get).toBe(reads);
  });

  it('signs out a cookie with a tampered signature, another secret or garbage, and clears it', async () => {
    const cookie = await signIn();
    const dot = cookie.lastIndexOf('.');
    const tampered = [
      `${cookie.slice(0, dot + 1)}${cookie[dot + 1] === 'A' ? 'B' : 'A'}${cookie.slice(dot + 2)}`,
      `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`,
      `${cookie[0] === 'A' ? 'B' : 'A'}${cookie.slice(1)}`,
      cookie.slice(0, dot),
      `${cookie.slice(0, dot)}.`,
      `${cookie}x`,
    ];
    const otherSecret = new SessionCookies('another secret, also thirty-two characters or more');
    // A session that exists, under the id the forged value names, signed with another secret.
    const foreign = otherSecret.issue();
    store.rows.set(foreign.id, { userId: 'user-1' });
    const reads = store.calls.get;
    for (const bad of [...tampered, foreign.value, 'garbage', '%%%', 'a.b.c']) {
      const response = await get('/me', bad);
      expect(response.json(), bad).toEqual({});
      expect(isCleared(sessionCookie(response)), bad).toBe(true);
    }
    // Refused before the store is asked.
    expect(store.calls.get).toBe(reads);
    // And the genuine cookie still works.
    expect(await me(cookie)).toMatchObject({ userId: 'user-1' });
  });

  it('refuses cookies signed with another secret on an app with a different secret', async () => {
    const cookie = await signIn();
    const other = await build('another secret, also thirty-two characters or more');
    try {
      const response = await other.inject({ method: 'GET', url: '/me', headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
      expect(response.json()).toEqual({});
    } finally {
      await other.close();
    }
  });

  it('treats a validly signed cookie whose session does not exist, or expired, as no session', async () => {
    const { value } = new SessionCookies(SECRET).issue();
    const response = await get('/me', value);
    expect(response.json()).toEqual({});
    expect(isCleared(sessionCookie(response))).toBe(true);
    // Starting a sign-in with it gets a new id, not the one the browser offered.
    const started = sessionCookie(await get('/start', value))!;
    expect(valueOf(started)).not.toBe(value);
    expect(store.rows.has(value.split('.')[0]!)).toBe(false);
  });

  it('gives the session a new id at sign-in and destroys the old row', async () => {
    const started = valueOf(sessionCookie(await get('/start')))!;
    const [pendingId] = [...store.rows.keys()];
    const signedIn = valueOf(sessionCookie(await get('/sign-in', started)))!;
    expect(signedIn).not.toBe(started);
    expect(store.rows.has(pendingId!)).toBe(false);
    expect([...store.rows.values()]).toEqual([{ userId: 'user-1', signedInAt: 1_700_000_000_000, idToken: 'id.token' }]);
    expect(await me(started)).toEqual({});
    expect(await me(signedIn)).toMatchObject({ userId: 'user-1' });
  });

  it('leaves no row and clears the cookie when a regenerated session stays empty', async () => {
    const started = valueOf(sessionCookie(await get('/start')))!;
    const response = await get('/sign-in-abandoned', started);
    expect(isCleared(sessionCookie(response))).toBe(true);
    expect(store.rows.size).toBe(0);
  });

  it('destroys the session: the row is deleted, the cookie cleared, and the cookie is worthless afterwards', async () => {
    const cookie = await signIn();
    const response = await get('/logout', cookie);
    expect(response.json()).toEqual({ after: null });
    expect(isCleared(sessionCookie(response))).toBe(true);
    expect(store.rows.size).toBe(0);
    expect(await me(cookie)).toEqual({});
  });

  it('saves a session only when a field changed', async () => {
    const started = valueOf(sessionCookie(await get('/start')))!;
    const writes = store.writes();
    // Reading, and setting fields to the values they have, change nothing.
    for (const url of ['/me', '/same']) {
      const response = await get(url, started);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(store.writes()).toBe(writes);
    // A change is saved, and the cookie's expiry renewed with it.
    const signedIn = valueOf(sessionCookie(await get('/sign-in', started)))!;
    const response = await get('/start', signedIn);
    expect(valueOf(sessionCookie(response))).toBe(signedIn);
    expect([...store.rows.values()]).toEqual([{ userId: 'user-1', signedInAt: 1_700_000_000_000, idToken: 'id.token', pendingSignIn: pending }]);
    // Deleting a field is a change too.
    await get('/forget-pending', signedIn);
    expect([...store.rows.values()]).toEqual([{ userId: 'user-1', signedInAt: 1_700_000_000_000, idToken: 'id.token' }]);
  });

  it('ends a session that a change left empty', async () => {
    const started = valueOf(sessionCookie(await get('/start')))!;
    const response = await get('/forget-pending', started);
    expect(isCleared(sessionCookie(response))).toBe(true);
    expect(store.rows.size).toBe(0);
  });

  it('saves a change made by a request that then failed, as before', async () => {
    const cookie = await signIn();
    expect((await get('/fail', cookie)).statusCode).toBe(500);
    expect(await me(cookie)).toMatchObject({ idToken: 'kept anyway' });
  });

  it('lets a response sent before it ran go out untouched', async () => {
    const cookie = await signIn();
    const response = await get('/me', cookie, { 'x-refuse': '1' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('changes a session without touching the frozen data the store shares between requests', async () => {
    const cookie = await signIn();
    store.reuse = true;
    expect((await get('/start', cookie)).statusCode).toBe(200);
    expect([...store.rows.values()]).toEqual([expect.objectContaining({ userId: 'user-1', pendingSignIn: pending })]);
  });
});
