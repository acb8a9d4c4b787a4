import { z } from 'zod';
import { ALLOWANCE } from '../rules.js';

/** A member's upload allowance: how many photos may wait for review at once, how many do, and why. */
export const uploadAllowance = z
  .object({
    limit: z.number().int(),
    pending: z.number().int().meta({ description: 'Photos of theirs waiting for review (not those members reported back into review).' }),
    trusted: z.boolean().meta({ description: 'The larger allowance, earned with approved photos and no rejection or removal in 90 days.' }),
    reasons: z.array(z.string()).meta({ description: 'Why the limit is what it is, to show the member.' }),
  })
  .meta({ id: 'UploadAllowance' });

const setting = z.number({ error: ALLOWANCE.settingInvalid }).int(ALLOWANCE.settingInvalid).min(1, ALLOWANCE.settingInvalid).max(ALLOWANCE.maxSetting, ALLOWANCE.settingInvalid);

/** What admins set: the basic allowance, the approved photos that earn the larger one, and the larger one. */
export const uploadAllowanceSettings = z
  .object({
    pendingLimit: setting.meta({ description: 'Photos a member may have waiting for review at once.' }),
    trustedAfter: setting.meta({ description: 'Approved photos (and no rejection or removal in 90 days) that earn the larger allowance.' }),
    trustedPendingLimit: setting.meta({ description: 'The larger allowance.' }),
  })
  .refine((s) => s.trustedPendingLimit >= s.pendingLimit, { message: ALLOWANCE.settingInvalid, path: ['trustedPendingLimit'] })
  .meta({ id: 'UploadAllowanceSettings' });
