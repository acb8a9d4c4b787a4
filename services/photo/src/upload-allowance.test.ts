import { describe, expect, it } from 'vitest';
import { ALLOWANCE } from '@snapcracks/http-contract';
import { uploadAllowance } from './upload-allowance.js';

const settings = { pendingLimit: 5, trustedAfter: 10, trustedPendingLimit: 15 };
const facts = (more: Partial<Parameters<typeof uploadAllowance>[1]> = {}) => ({ pending: 0, approved: 0, rejectedRecently: 0, rejectedLately: 0, ...more });

describe('upload allowances', () => {
  it('gives a new member the basic allowance and says what earns the larger one', () => {
    expect(uploadAllowance(settings, facts({ pending: 2, approved: 3 }))).toEqual({
      limit: 5,
      pending: 2,
      trusted: false,
      reasons: [ALLOWANCE.base(5), ALLOWANCE.towardTrusted(7, 15)],
    });
  });

  it('gives the larger allowance for enough approved photos and a clean record of 90 days', () => {
    expect(uploadAllowance(settings, facts({ approved: 10 }))).toMatchObject({ limit: 15, trusted: true, reasons: [ALLOWANCE.trusted(10, 15)] });
    // A rejection within 90 days keeps the basic one; within 30 days it also takes one off.
    expect(uploadAllowance(settings, facts({ approved: 40, rejectedRecently: 1 }))).toMatchObject({ limit: 5, trusted: false });
    expect(uploadAllowance(settings, facts({ approved: 40, rejectedRecently: 2, rejectedLately: 2 }))).toMatchObject({
      limit: 3,
      reasons: [ALLOWANCE.base(5), ALLOWANCE.towardTrusted(0, 15), ALLOWANCE.penalty(2)],
    });
  });

  it('never goes below one', () => {
    expect(uploadAllowance(settings, facts({ rejectedRecently: 9, rejectedLately: 9 })).limit).toBe(1);
  });
});
