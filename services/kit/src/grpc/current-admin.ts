import { PermissionDeniedError } from '../errors.js';
import { ADMIN_REQUIRED, requireAdmin } from './authorize.js';
import type { Caller } from './identity.js';
import type { CallContext } from './server.js';

/** What an admin-only mutation needs to know of the acting admin's account as it is now. */
export interface AdminRecord {
  isAdmin: boolean;
  isEnabled: boolean;
  hasAcceptedTerms: boolean;
}

/** Reads the acting admin's account from its owner (the auth service, or auth's own table); null when it is gone. */
export type AdminRecordReader = (admin: Caller) => Promise<AdminRecord | null>;

/**
 * For admin-only mutations: the call's admin claim, and the admin's current account too. The claim is the gateway's,
 * made from an account read at most a few seconds ago; an admin demoted or disabled since must not act in that window.
 */
export async function requireCurrentAdmin(ctx: CallContext, read: AdminRecordReader): Promise<Caller> {
  const admin = requireAdmin(ctx);
  const record = await read(admin);
  if (!record?.isAdmin || !record.isEnabled || !record.hasAcceptedTerms) {
    ctx.logger.warn({ userId: admin.userId, record: record ?? 'gone' }, 'refused an admin claim the account no longer supports');
    throw new PermissionDeniedError(ADMIN_REQUIRED);
  }
  return admin;
}
