import { ALLOWANCE } from '@snapcracks/http-contract';

export interface AllowanceSettings {
  pendingLimit: number;
  trustedAfter: number;
  trustedPendingLimit: number;
}

/** What a member's allowance depends on, counted over their photos. */
export interface AllowanceFacts {
  /** Waiting for review because they uploaded or resubmitted them (not photos members' reports put back in review). */
  pending: number;
  approved: number;
  /** Photos of theirs rejected or removed within ALLOWANCE.cleanRecordDays, and within ALLOWANCE.penaltyDays. */
  rejectedRecently: number;
  rejectedLately: number;
}

export interface Allowance {
  limit: number;
  pending: number;
  trusted: boolean;
  /** Why the limit is what it is, in the words the member reads. */
  reasons: string[];
}

/**
 * A member's allowance: the basic one, or the larger one once they have `trustedAfter` approved photos and no rejection
 * or removal in 90 days; each rejection or removal in the last 30 days takes one off, never below one.
 */
export function uploadAllowance(settings: AllowanceSettings, facts: AllowanceFacts): Allowance {
  const trusted = facts.approved >= settings.trustedAfter && facts.rejectedRecently === 0;
  const earned = trusted ? settings.trustedPendingLimit : settings.pendingLimit;
  const limit = Math.max(1, earned - facts.rejectedLately);
  const reasons = [trusted ? ALLOWANCE.trusted(settings.trustedAfter, settings.trustedPendingLimit) : ALLOWANCE.base(settings.pendingLimit)];
  if (!trusted && settings.trustedPendingLimit > settings.pendingLimit) {
    reasons.push(ALLOWANCE.towardTrusted(Math.max(0, settings.trustedAfter - facts.approved), settings.trustedPendingLimit));
  }
  if (facts.rejectedLately > 0) reasons.push(ALLOWANCE.penalty(facts.rejectedLately));
  return { limit, pending: facts.pending, trusted, reasons };
}
