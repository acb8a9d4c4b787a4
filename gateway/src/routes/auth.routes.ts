import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { status } from '@grpc/grpc-js';
import { ERRORS, loginPath, routes, type User as UserJson } from '@snapcracks/http-contract';
import { isServiceError } from '@snapcracks/kit';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Clients } from '../clients.js';
import type { OidcRelyingParty } from '../oidc.js';
import type { UserDirectory } from '../user-directory.js';
import { HttpError } from '../http-errors.js';
import { contractRoutes } from '../contract-route.js';
import { confirmPage, messagePage } from '../pages.js';

export interface AuthRouteOptions {
  clients: Clients;
  oidc: OidcRelyingParty;
  users: UserDirectory;
  /** The public base URL, or null to use the request's own origin (development). */
  publicUrl: string | null;
}

/** The user as the web app reads it (spec §3), with null for what is not set. */
export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    email: user.email ?? null,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    profileImageUrl: user.profileImageUrl ?? null,
    displayName: user.displayName ?? null,
    customProfileImage: user.customProfileImage ?? null,
    isAdmin: user.isAdmin,
    isEnabled: user.isEnabled,
    hasAcceptedTerms: user.hasAcceptedTerms,
    termsAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
    createdAt: user.createdAt?.toISOString() ?? null,
    updatedAt: user.updatedAt?.toISOString() ?? null,
  };
}

export default async function authRoutes(app: FastifyInstance, options: AuthRouteOptions) {
  const { clients, oidc, users } = options;
  const serve = contractRoutes(app);
  const baseUrl = (request: FastifyRequest) => options.publicUrl ?? `${request.protocol}://${request.host}`;

  // `?returnTo=/dashboard`: the page to come back to, kept with the pending sign-in (server side) until the callback.
  // The sign-in endpoints have a stricter limit (routes.login.limit): each one costs the identity provider a round trip.
  serve(routes.login, async (request, reply) => {
    const { returnTo } = request.query;
    let started;
    try {
      started = await oidc.startSignIn(`${baseUrl(request)}/api/callback`);
    } catch (error) {
      request.log.error({ err: error }, 'the identity provider is unreachable');
      return reply
        .code(503)
        .type('text/html')
        .send(messagePage('Sign-in unavailable', 'We cannot reach the sign-in service right now. Please try again in a moment.', { href: loginPath(returnTo), label: 'Try again' }));
    }
    request.session.pendingSignIn = returnTo === undefined ? started.pending : { ...started.pending, returnTo };
    return reply.redirect(started.url.href);
  });

  serve(routes.signInCallback, async (request, reply) => {
    const pending = request.session.pendingSignIn;
    const retry = { href: loginPath(pending?.returnTo), label: 'Try again' };
    if (!pending) {
      return reply.code(400).type('text/html').send(messagePage('Sign-in expired', 'This sign-in link is no longer valid. Please start again.', retry));
    }
    const callbackUrl = new URL(request.url, pending.redirectUri);
    let result;
    try {
      result = await oidc.finishSignIn(callbackUrl, pending);
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in failed at the identity provider');
      delete request.session.pendingSignIn;
      return reply.code(400).type('text/html').send(messagePage('Sign-in failed', 'We could not complete your sign-in. Please try again.', retry));
    }
    let user;
    try {
      ({ user } = await clients.auth.call.signIn(result.claims, { caller: null }));
    } catch (error) {
      // A refusal the person can act on (e.g. their email belongs to another account) deserves a page, not JSON.
      if (!isServiceError(error) || error.code !== status.FAILED_PRECONDITION) throw error;
      delete request.session.pendingSignIn;
      return reply.code(409).type('text/html').send(messagePage('Sign-in refused', error.details, { href: '/contact', label: 'Contact support' }));
    }
    if (!user) throw new Error('The auth service returned no user');
    if (!user.isEnabled) {
      await request.session.destroy();
      return reply
        .code(403)
        .type('text/html')
        .send(messagePage('Account disabled', ERRORS.disabled, { href: '/', label: 'Back to Snap Cracks' }));
    }
    // A new session id at sign-in, so a session id planted before sign-in is worthless afterwards.
    await request.session.regenerate();
    request.session.userId = user.id;
    request.session.signedInAt = Date.now();
    request.session.idToken = result.idToken;
    users.remember(user.id, user);
    return reply.redirect(pending.returnTo ?? '/');
  });

  const signOut = async (request: FastifyRequest, reply: FastifyReply, status: 302 | 303) => {
    const idToken = request.session.idToken;
    if (request.session.userId || request.session.pendingSignIn) await request.session.destroy();
    const endSession = await oidc.endSessionUrl(`${baseUrl(request)}/`, idToken);
    return reply.redirect(endSession?.href ?? '/', status);
  };

  // The spec's sign-out is a navigation to GET /api/logout from the product's own pages. One that another site started
  // (a link, an image, a form, a redirect) does not end the session: it shows a page asking to confirm, whose button
  // posts to POST /api/logout, where the cross-site check for unsafe methods (plugins/security.ts) applies.
  serve(routes.logout, async (request, reply) => {
    if (isOwnNavigation(request, new URL(baseUrl(request)).origin)) return signOut(request, reply, 302);
    request.log.info({ site: request.headers['sec-fetch-site'] ?? null }, 'sign-out not started from our pages: asked to confirm');
    return reply
      .type('text/html')
      .send(confirmPage('Sign out?', 'Do you want to sign out of Snap Cracks?', { action: '/api/logout', label: 'Sign Out' }, { href: '/', label: 'Cancel' }));
  });
  // The confirmation's form posts no fields; its body (urlencoded, as every form's) is read and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  // 303: the browser follows with a GET to the identity provider's end-session page.
  serve(routes.confirmLogout, async (request, reply) => signOut(request, reply, 303));

  serve(routes.currentUser, async (request) => {
    const user = await request.currentUser();
    if (!user) throw new HttpError(401, ERRORS.unauthorized);
    return toUserJson(user);
  });

  serve(routes.acceptTerms, async (request) => {
    const caller = await request.requireCaller();
    const { user } = await clients.auth.call.acceptTerms({}, { caller });
    if (!user) throw new Error('The auth service returned no user');
    users.remember(user.id, user);
    return toUserJson(user);
  });
}

/**
 * Whether a navigation came from our own pages, or from the person (typed, bookmarked): Sec-Fetch-Site, which every
 * current browser sends and no page can forge, says same-origin or none; a browser without it must send a Referer of
 * ours (the product's referrer policy keeps it for our own pages). Nothing at all, or anything else, is not ours.
 */
export function isOwnNavigation(request: FastifyRequest, ownOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const referer = request.headers.referer;
  if (!referer) return false;
  try {
    return new URL(referer).origin === ownOrigin;
  } catch {
    return false;
  }
}
