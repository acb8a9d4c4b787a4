import { z } from '@/lib/zod';

export const DISPLAY_NAME_MAX_LENGTH = 50;
export const DISPLAY_NAME_REQUIRED = 'Display name is required';
export const DISPLAY_NAME_TOO_LONG = `Display name must be ${DISPLAY_NAME_MAX_LENGTH} characters or less`;
export const EMAIL_INVALID = 'Please enter a valid email address';

export interface EditUserValues {
  displayName: string;
  email: string;
  isEnabled: boolean;
  isAdmin: boolean;
}

/**
 * SPEC §5 for an admin's edit: a display name is trimmed, required and at most 50 characters; an email must be valid.
 * A field the account never had may stay empty as long as it is left alone (only changed fields are sent).
 */
export function editUserSchema(initial: Pick<EditUserValues, 'displayName' | 'email'>) {
  return z.object({
    displayName: z
      .string()
      .trim()
      .max(DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_TOO_LONG)
      .refine((value) => value !== '' || initial.displayName === '', DISPLAY_NAME_REQUIRED),
    email: z
      .string()
      .trim()
      .refine((value) => (value === '' ? initial.email === '' : z.email().safeParse(value).success), EMAIL_INVALID),
    isEnabled: z.boolean(),
    isAdmin: z.boolean(),
  });
}
