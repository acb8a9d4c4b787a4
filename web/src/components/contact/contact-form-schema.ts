import { CONTACT, EMAIL, schemas } from '@snapcracks/http-contract';
import type { z } from '@/lib/zod';

export const CONTACT_NAME_MAX_LENGTH = CONTACT.name.maxLength;
export const CONTACT_SUBJECT_MAX_LENGTH = CONTACT.subject.maxLength;
export const CONTACT_MESSAGE_MAX_LENGTH = CONTACT.message.maxLength;
export const CONTACT_EMAIL_MAX_LENGTH = EMAIL.maxLength;

/** The contact form's rules and messages (SPEC §5), the very schema the gateway checks: values are trimmed first. */
export const contactFormSchema = schemas.contactBody;

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
