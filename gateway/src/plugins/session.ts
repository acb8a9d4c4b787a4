import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import session from '@fastify/session';
import type { PendingSignIn } from '../oidc.js';
import type { PrismaSessionStore } from '../session-store.js';

declare module 'fastify' {
  interface Session {
    userId?: string;
    /** Kept for the issuer's end-session call (id_token_hint). */
    idToken?: string;
    pendingSignIn?: PendingSignIn;
    /** Epoch ms of sign-in: the session ends SESSION_MAX_HOURS after it, however much it is used. */
    signedInAt?: number;
  }
}

export interface SessionOptions {
  secret: string;
  store: PrismaSessionStore;
  /** The cookie's lifetime: the absolute maximum (the store ends idle sessions sooner). */
  maxAgeMs: number;
}

export const SESSION_COOKIE = 'snapcracks.sid';

/**
 * Server-side sessions in PostgreSQL behind an HttpOnly, SameSite=Lax cookie that is Secure whenever the
 * request arrived over TLS (directly or, with TRUST_PROXY, through the ingress). Sessions are only saved
 * once something is stored in them, so anonymous visitors create no rows, and only when they change.
 */
export default fp<SessionOptions>(async (app, options) => {
  await app.register(cookie);
  await app.register(session, {
    secret: options.secret,
    cookieName: SESSION_COOKIE,
    store: options.store,
    saveUninitialized: false,
    // Not rolling: re-saving the session on every request would cost a database write per API call.
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/', maxAge: options.maxAgeMs },
  });
});
