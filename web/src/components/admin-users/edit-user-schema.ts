import { DISPLAY_NAME, EMAIL } from '@snapcracks/http-contract';
import { z } from '@/lib/zod';

export const DISPLAY_NAME_MAX_LENGTH = DISPLAY_NAME.maxLength;
export const DISPLAY_NAME_REQUIRED = DISPLAY_NAME.required;
export const DISPLAY_NAME_TOO_LONG = DISPLAY_NAME.tooLong;
export const EMAIL_INVALID = EMAIL.invalid;

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
