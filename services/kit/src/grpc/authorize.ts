import { ERRORS, TERMS } from '@snapcracks/http-contract';

import { PermissionDeniedError, UnauthenticatedError } from '../errors.js';
import type { Caller } from './identity.js';
import type { CallContext } from './server.js';

/** Services authorize on their own: the gateway's checks are a convenience, never the only guard. */
export function requireUser(ctx: CallContext): Caller {
  if (!ctx.caller) throw new UnauthenticatedError();
  return ctx.caller;
}

/** A signed-in user who has accepted the terms, as every product feature requires. */
export function requireMember(ctx: CallContext): Caller {
  const caller = requireUser(ctx);
  if (!caller.hasAcceptedTerms) {
    throw new PermissionDeniedError(TERMS.required);
  }
  return caller;
}

export const ADMIN_REQUIRED = ERRORS.adminOnly;

export function requireAdmin(ctx: CallContext): Caller {
  const caller = requireMember(ctx);
  if (!caller.isAdmin) throw new PermissionDeniedError(ADMIN_REQUIRED);
  return caller;
}

/** For internal calls only one component may make, e.g. sign-in provisioning by the gateway. */
export function requireService(ctx: CallContext, ...services: string[]): void {
  if (!services.includes(ctx.service)) throw new PermissionDeniedError(`Only ${services.join(' or ')} may call this`);
}
