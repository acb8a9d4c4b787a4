import { z } from 'zod';
import { DISPLAY_NAME, EMAIL, TERMS, USER_SEARCH, PAGES } from '../rules.js';
import { pageQuery, requiredText, timestamp } from '../fields.js';

/** The signed-in member as the web app reads it (spec §3), null for what is not set. */
export const user = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    displayName: z.string().nullable(),
    /** The stored avatar's file name, served at /uploads/{customProfileImage}. */
    customProfileImage: z.string().nullable(),
    isAdmin: z.boolean(),
    isEnabled: z.boolean(),
    hasAcceptedTerms: z.boolean(),
    termsAcceptedAt: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

export const acceptTermsBody = z
  .object({ hasAcceptedTerms: z.literal(true, { error: TERMS.required }) }, { error: TERMS.required })
  .meta({ id: 'AcceptTerms' });

export const displayName = requiredText(DISPLAY_NAME);

export const profileBody = z.object({ displayName }, { error: DISPLAY_NAME.required }).meta({ id: 'ProfileUpdate' });

export const avatarResult = z
  .object({
    user,
    /** How many faces storage found in the new avatar; absent when detection did not run. */
    facesDetected: z.number().int().optional(),
  })
  .meta({ id: 'AvatarResult' });

/** A user as the admin list shows it (spec §3): `avatar` follows the avatar rule, null when only initials are left. */
export const adminUser = z
  .object({
    id: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    avatar: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    isEnabled: z.boolean(),
    isAdmin: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'AdminUser' });

export const adminUserPage = z
  .object({ users: z.array(adminUser), total: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'AdminUserPage' });

export const adminUserQuery = pageQuery(PAGES.limits.adminUsers).extend({
  q: z.string({ error: USER_SEARCH.tooLong }).max(USER_SEARCH.maxLength, USER_SEARCH.tooLong).optional().meta({ description: 'Part of a name or email.' }),
});

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` });

/** Spec §7: the whole edit, or a single flag. */
export const adminUserEdit = z
  .object(
    {
      displayName: displayName.optional(),
      email: z.string({ error: EMAIL.invalid }).trim().max(EMAIL.maxLength, EMAIL.invalid).pipe(z.email(EMAIL.invalid)).optional(),
      isEnabled: flag('isEnabled').optional(),
      isAdmin: flag('isAdmin').optional(),
    },
    { error: 'Send the changes as a JSON object' },
  )
  .meta({ id: 'AdminUserEdit' });

export const userIdParams = z.object({ id: z.string().min(1).max(200).meta({ description: 'The user id.' }) });
