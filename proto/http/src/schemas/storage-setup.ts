import { z } from 'zod';
import { DRIVE_AUTHORIZATION } from '../rules.js';

export const driveAuthUrl = z.object({ authUrl: z.string() }).meta({ id: 'DriveAuthUrl' });

export const driveCodeBody = z
  .object({ code: z.string({ error: DRIVE_AUTHORIZATION.codeRequired }).trim().min(1, DRIVE_AUTHORIZATION.codeRequired) })
  .meta({ id: 'DriveCode' });

export const driveRefreshToken = z.object({ refreshToken: z.string() }).meta({ id: 'DriveRefreshToken' });

/** Where Google sends the admin's browser back: a code or an error, and the state the consent URL carried. */
export const driveCallbackQuery = z.object({ code: z.string().optional(), error: z.string().optional(), state: z.string().optional() }).loose();
