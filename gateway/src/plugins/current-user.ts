import { ERRORS } from '@snapcracks/http-contract';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '@snapcracks/kit';
import type { User } from '@snapcracks/proto/auth/v1';
import { HttpError } from '../http-errors.js';
import type { UserDirectory } from '../user-directory.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in, enabled user, or null when signed out. A disabled account answers 403 here. */
    currentUser(): Promise<User | null>;
    /** The signed-in user as a service caller; 401 when signed out. */
    requireCaller(): Promise<Caller>;
    /** Like requireCaller, and the terms must have been accepted (every product feature). */
    requireMember(): Promise<Caller>;
    /**
     * A member with the admin flag; 403 for anyone else (the services check again). For a change (any method but GET and
     * HEAD) the account is read as it is now, not from the cache: an admin demoted or disabled a moment ago changes nothing.
     */
    requireAdmin(): Promise<Caller>;
  }
}

export default fp<{ users: UserDirectory }>(async (app, { users }) => {
  const cache = new WeakMap<FastifyRequest, Promise<User | null>>();
  /** The account read afresh for an admin's change, once per request (the route's guard and its handler both ask). */
  const fresh = new WeakMap<FastifyRequest, Promise<User | null>>();

  app.decorateRequest('currentUser', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      pending = resolve(this, users);
      cache.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('requireCaller', async function (this: FastifyRequest) {
    const user = await this.currentUser();
    if (!user) throw new HttpError(401, ERRORS.unauthorized);
    return toCaller(user);
  });
  app.decorateRequest('requireMember', async function (this: FastifyRequest) {
    const caller = await this.requireCaller();
    if (!caller.hasAcceptedTerms) throw new HttpError(403, ERRORS.termsRequired);
    return caller;
  });
  app.decorateRequest('requireAdmin', async function (this: FastifyRequest) {
    const caller = await this.requireMember();
    if (!caller.isAdmin) throw new HttpError(403, ERRORS.adminOnly);
    if (this.method === 'GET' || this.method === 'HEAD') return caller;
    let reading = fresh.get(this);
    if (!reading) {
      reading = users.get(caller.userId, { fresh: true });
      fresh.set(this, reading);
    }
    const now = await reading;
    if (!now?.isEnabled) throw new HttpError(403, now ? ERRORS.disabled : ERRORS.unauthorized);
    const current = toCaller(now);
    if (!current.isAdmin || !current.hasAcceptedTerms) throw new HttpError(403, ERRORS.adminOnly);
    return current;
  });
});

async function resolve(request: FastifyRequest, users: UserDirectory): Promise<User | null> {
  const userId = request.session.userId;
  if (!userId) return null;
  const user = await users.get(userId);
  if (!user) {
    // The account was deleted: the session is worthless.
    await request.session.destroy();
    return null;
  }
  if (!user.isEnabled) throw new HttpError(403, ERRORS.disabled);
  return user;
}

export function toCaller(user: User): Caller {
  return { userId: user.id, isAdmin: user.isAdmin, hasAcceptedTerms: user.hasAcceptedTerms };
}
