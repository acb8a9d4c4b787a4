import { z } from '@/lib/zod';

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_SUBJECT_MAX_LENGTH = 200;
export const CONTACT_MESSAGE_MAX_LENGTH = 2000;
/** The longest address mail can be delivered to (RFC 5321); the server refuses longer ones alike. */
export const CONTACT_EMAIL_MAX_LENGTH = 254;

/** The contact form's rules and messages (SPEC §5); values are trimmed before they are checked and sent. */
export const contactFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(CONTACT_NAME_MAX_LENGTH, 'Name must be 100 characters or less'),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(CONTACT_EMAIL_MAX_LENGTH, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  subject: z
    .string()
    .trim()
    .min(1, 'Subject is required')
    .max(CONTACT_SUBJECT_MAX_LENGTH, 'Subject must be 200 characters or less'),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(CONTACT_MESSAGE_MAX_LENGTH, 'Message must be 2000 characters or less'),
});

export type ContactFormValues = z.input<typeof contactFormSchema>;
export type ContactFormField = keyof ContactFormValues;
export type ContactFormErrors = Partial<Record<ContactFormField, string>>;

/** Validates the form: the cleaned values, or the first message of each invalid field. */
export function validateContactForm(
  values: ContactFormValues,
): { success: true; data: ContactFormValues } | { success: false; errors: ContactFormErrors } {
  const result = contactFormSchema.safeParse(values);
  if (result.success) return { success: true, data: result.data };
  const errors: ContactFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactFormField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { success: false, errors };
}
