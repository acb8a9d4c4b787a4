import { z } from 'zod';
import { CONTACT, EMAIL, PAGES } from '../rules.js';
import { pageQuery, requiredText, timestamp, wholeNumber } from '../fields.js';

export const contactFormStatus = z.enum(CONTACT.statuses).meta({ id: 'ContactFormStatus' });

/** Spec §5: every field required and trimmed. A body that is not an object lacks its first field. */
export const contactBody = z
  .object(
    {
      name: requiredText(CONTACT.name),
      email: z.string({ error: EMAIL.required }).trim().min(1, EMAIL.required).max(EMAIL.maxLength, EMAIL.invalid).pipe(z.email(EMAIL.invalid)),
      subject: requiredText(CONTACT.subject),
      message: requiredText(CONTACT.message),
    },
    { error: CONTACT.name.required },
  )
  .meta({ id: 'ContactMessage' });

/** A contact form as the admin's support screen reads it (spec §7). */
export const contactForm = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    status: contactFormStatus,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ContactForm' });

export const contactFormQuery = pageQuery(PAGES.limits.contactForms).extend({
  status: z.enum([...CONTACT.statuses, 'all'], { error: CONTACT.filterInvalid }).default('all'),
});

export const contactFormIdParams = z.object({ id: wholeNumber(CONTACT.idInvalid, 999_999_999_999_999).meta({ description: 'The contact form id.' }) });

export const contactStatusBody = z
  .object({ status: z.enum(CONTACT.statuses, { error: CONTACT.statusInvalid }) }, { error: CONTACT.statusInvalid })
  .meta({ id: 'ContactFormStatusChange' });

export const contactFormCounts = z
  .object({ new: z.number().int(), in_progress: z.number().int(), resolved: z.number().int(), total: z.number().int() })
  .meta({ id: 'ContactFormCounts' });

export const contactFormPage = z
  .object({ items: z.array(contactForm), counts: contactFormCounts, total: z.number().int(), page: z.number().int(), totalPages: z.number().int() })
  .meta({ id: 'ContactFormPage' });
