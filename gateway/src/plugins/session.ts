import fp from 'fastify-plugin';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { PendingSignIn } from '../oidc.js';
import type { DriveAuthorizationState, SessionData, SessionStore } from '../session-store.js';
import { SessionCookies } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's session; an empty one when signed out (no cookie, or one that names no live session). */
    session: Session;
  }
}

export interface SessionOptions {
  secret: string;
  store: SessionStore;
  /** The cookie's lifetime: the absolute maximum (the store ends idle sessions sooner). */
  maxAgeMs: number;
}

/** The session cookie's name over plain http (development, loopback). */
export const SESSION_COOKIE = 'snapcracks.sid';
/**
 * Its name over https: the `__Host-` prefix makes browsers refuse it unless it is Secure, for Path=/ and without a
 * Domain, so no other site on a sibling or parent domain can set or overwrite it (planting a session of its choosing).
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The cookie the deployment uses: over https only the prefixed one is read or written, over http only the plain one. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

const EMPTY: Readonly<SessionData> = Object.freeze({});
const COOKIE_OPTIONS = { path: '/', httpOnly: true, sameSite: 'lax' } as const;

// What the plugin uses at the end of a request, out of the routes' reach.
const needsSaving = Symbol('needsSaving');
const save = Symbol('save');

/**
 * A request's session: the fields the gateway keeps, as plain properties to read, set and delete. A field is changed
 * when it no longer is the very value the store answered, a comparison of five references where @fastify/session
 * hashed the whole session twice; only a changed session is written, once, when the response is sent.
 */
export class Session implements SessionData {
  userId?: string;
  /** Kept for the issuer's end-session call (id_token_hint). */
  idToken?: string;
  pendingSignIn?: PendingSignIn;
  /** Epoch ms of sign-in: the session ends SESSION_MAX_HOURS after it, however much it is used. */
  signedInAt?: number;
  /** An admin's Google Drive authorization under way (routes/google-drive.routes.ts). */
  driveAuthorization?: DriveAuthorizationState;

  readonly #store: SessionStore;
  readonly #cookies: SessionCookies;
  /** The cookie value this request came with. */
  readonly #cookie: string | undefined;
  /** The live session the cookie named; undefined for a new one. */
  #id: string | undefined;
  /** What the store holds (frozen, shared with concurrent requests). */
  #saved: Readonly<SessionData>;
  /** The browser's cookie names no live session (forged, stale or ended): clear it unless a new one is set. */
  #stale: boolean;

  constructor(store: SessionStore, cookies: SessionCookies, cookie: string | undefined, id: string | undefined, saved: Readonly<SessionData>) {
    this.userId = saved.userId;
    this.idToken = saved.idToken;
    this.pendingSignIn = saved.pendingSignIn;
    this.signedInAt = saved.signedInAt;
    this.driveAuthorization = saved.driveAuthorization;
    this.#store = store;
    this.#cookies = cookies;
    this.#cookie = cookie;
    this.#id = id;
    this.#saved = saved;
    this.#stale = cookie !== undefined && id === undefined;
  }

  /**
   * Ends this session and starts an empty one that gets a new id when something is stored in it: at sign-in, so a
   * session id planted before sign-in is worthless afterwards.
   */
  regenerate(): Promise<void> {
    return this.#end();
  }

  /** Ends the session: its row is deleted and the browser's cookie cleared. */
  destroy(): Promise<void> {
    return this.#end();
  }

  async #end(): Promise<void> {
    const id = this.#id;
    this.#id = undefined;
    this.userId = this.idToken = this.pendingSignIn = this.signedInAt = this.driveAuthorization = undefined;
    this.#saved = EMPTY;
    if (this.#cookie !== undefined) {
      this.#stale = true;
      this.#cookies.forget(this.#cookie);
    }
    if (id !== undefined) await this.#store.destroy(id);
  }

  #changed(): boolean {
    const saved = this.#saved;
    return (
      this.userId !== saved.userId ||
      this.idToken !== saved.idToken ||
      this.pendingSignIn !== saved.pendingSignIn ||
      this.signedInAt !== saved.signedInAt ||
      this.driveAuthorization !== saved.driveAuthorization
    );
  }

  /** Whether the response must write the session or its cookie; false on almost every request. */
  get [needsSaving](): boolean {
    return this.#stale || this.#changed();
  }

  /** Saves a changed session and answers the Set-Cookie header the response needs, if any. */
  async [save](secure: boolean, maxAgeMs: number): Promise<string | undefined> {
    if (this.#changed()) {
      const data: SessionData = {
        userId: this.userId,
        idToken: this.idToken,
        pendingSignIn: this.pendingSignIn,
        signedInAt: this.signedInAt,
        driveAuthorization: this.driveAuthorization,
      };
      if (isEmpty(data)) {
        // Nothing left to keep (a sign-in that failed): no row, and no cookie.
        await this.#end();
      } else {
        let value = this.#cookie;
        if (this.#id === undefined || value === undefined) ({ id: this.#id, value } = this.#cookies.issue());
        await this.#store.set(this.#id, data);
        this.#saved = data;
        this.#stale = false;
        return serializeCookie(sessionCookieName(secure), value, { ...COOKIE_OPTIONS, secure, expires: new Date(Date.now() + maxAgeMs) });
      }
    }
    return this.#stale ? serializeCookie(sessionCookieName(secure), '', { ...COOKIE_OPTIONS, secure, maxAge: 0, expires: new Date(0) }) : undefined;
  }
}

function isEmpty(data: SessionData): boolean {
  return (
    data.userId === undefined &&
    data.idToken === undefined &&
    data.pendingSignIn === undefined &&
    data.signedInAt === undefined &&
    data.driveAuthorization === undefined
  );
}

/**
 * Server-side sessions in PostgreSQL behind an HttpOnly, SameSite=Lax cookie that is Secure and named with the
 * `__Host-` prefix whenever the request arrived over TLS (directly or, with TRUST_PROXY, through the ingress). Sessions are only saved
 * once something is stored in them, so anonymous visitors create no rows, and only when they change (not rolling:
 * re-saving on every request would cost a database write per API call). A signed-in request costs a map lookup for
 * its cookie (SessionCookies), one for its session (the store's reuse window) and one small object.
 */
export default fp<SessionOptions>(
  async (app, options) => {
    const { store, maxAgeMs } = options;
    const cookies = new SessionCookies(options.secret);

    app.decorateRequest('session', null as unknown as Session);

    app.addHook('onRequest', (request, _reply, done) => {
      // Over https a plain `snapcracks.sid` (one set before the prefix, or by a neighbouring site) names no session.
      const name = sessionCookieName(request.protocol === 'https');
      const cookie = (request.headers.cookie && parseCookies(request.headers.cookie)[name]) || undefined;
      const id = cookie === undefined ? null : cookies.idOf(cookie);
      if (id === null) {
        request.session = new Session(store, cookies, cookie, undefined, EMPTY);
        return done();
      }
      const recent = store.recent(id);
      if (recent) {
        request.session = new Session(store, cookies, cookie, id, recent);
        return done();
      }
      store.get(id).then((data) => {
        request.session = data ? new Session(store, cookies, cookie, id, data) : new Session(store, cookies, cookie, undefined, EMPTY);
        done();
      }, done);
    });

    app.addHook('onSend', (request, reply, _payload, done) => {
      const session = request.session as Session | null;
      // Null when the response was sent before this plugin's onRequest ran (rate limit, cross-site check).
      if (!session?.[needsSaving]) return done();
      session[save](request.protocol === 'https', maxAgeMs).then((header) => {
        // Fastify adds a set-cookie header to any already there.
        if (header) reply.header('set-cookie', header);
        done();
      }, done);
    });
  },
  { name: 'session' },
);
