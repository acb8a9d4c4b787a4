import { z } from 'zod';
import { InvalidArgumentError, NotFoundError, makeEvent } from '@snapcracks/kit';
import { ContactFormStatusChanged, ContactFormSubmitted } from '@snapcracks/proto/events/v1';
import {
  CONTACT_FORM_STATUSES,
  type ContactForm,
  type ContactFormRepository,
  type ContactFormStatus,
  type EventOf,
  type NewContactForm,
  type StatusCounts,
} from './contact-form.repository.js';

/** The contact form's rules and messages (spec §5); the gateway and the web app check the same. */
export const MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be 100 characters or less',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  subjectRequired: 'Subject is required',
  subjectTooLong: 'Subject must be 200 characters or less',
  messageRequired: 'Message is required',
  messageTooLong: 'Message must be 2000 characters or less',
  statusInvalid: 'Status must be new, in_progress or resolved',
  notFound: 'Contact form not found',
  pageInvalid: 'Page must be a whole number from 1 to 100000',
  limitInvalid: 'Limit must be a whole number from 1 to 100',
} as const;

export const NAME_MAX = 100;
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 2000;
/** The longest address SMTP can deliver to (RFC 5321). */
export const EMAIL_MAX = 254;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
export const MAX_PAGE = 100_000;
/** Ids are PostgreSQL `integer`s: anything larger names no form. */
const MAX_ID = 2_147_483_647;
const SOURCE = 'support';

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/** Every field trimmed, then checked; the first problem, in field order, is the one reported. */
export const contactFormSchema = z.object({
  name: required(MESSAGES.nameRequired).max(NAME_MAX, MESSAGES.nameTooLong),
  email: required(MESSAGES.emailRequired).max(EMAIL_MAX, MESSAGES.emailInvalid).pipe(z.email(MESSAGES.emailInvalid)),
  subject: required(MESSAGES.subjectRequired).max(SUBJECT_MAX, MESSAGES.subjectTooLong),
  message: required(MESSAGES.messageRequired).max(MESSAGE_MAX, MESSAGES.messageTooLong),
});

export interface ContactFormPage {
  contactForms: ContactForm[];
  counts: StatusCounts;
  /** Forms matching the filter. */
  total: number;
  totalPages: number;
}

export interface ListQuery {
  /** Null for every status. */
  status: ContactFormStatus | null;
  /** 0 (unset) means 1. */
  page?: number | undefined;
  /** 0 (unset) means 50. */
  limit?: number | undefined;
}

/**
 * Contact-form rules: what a submission must hold, how the admin list pages, which statuses exist. Any status may
 * follow any other (spec §4). Who may call what is the gRPC edge's business (submitting is public, the rest admin).
 */
export class SupportService {
  constructor(private readonly forms: ContactFormRepository) {}

  /** Stores a valid submission, trimmed, with its event; INVALID_ARGUMENT with the spec's message otherwise. */
  submit(input: NewContactForm): Promise<ContactForm> {
    const parsed = contactFormSchema.safeParse(input);
    if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? MESSAGES.nameRequired);
    return this.forms.create(parsed.data, submittedEvent);
  }

  async list({ status, page = 0, limit = 0 }: ListQuery): Promise<ContactFormPage> {
    const pageNumber = page === 0 ? 1 : page;
    const size = limit === 0 ? DEFAULT_LIMIT : limit;
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > MAX_PAGE) throw new InvalidArgumentError(MESSAGES.pageInvalid);
    if (!Number.isInteger(size) || size < 1 || size > MAX_LIMIT) throw new InvalidArgumentError(MESSAGES.limitInvalid);
    const [contactForms, counts] = await Promise.all([
      this.forms.list({ status, offset: (pageNumber - 1) * size, limit: size }),
      this.forms.countByStatus(),
    ]);
    const total = status === null ? counts.total : counts[status];
    return { contactForms, counts, total, totalPages: Math.ceil(total / size) };
  }

  /** Moves a form to `status`, from whatever it is now; NOT_FOUND for an unknown id. */
  async setStatus(id: number, status: ContactFormStatus): Promise<ContactForm> {
    if (!isStatus(status)) throw new InvalidArgumentError(MESSAGES.statusInvalid);
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw new NotFoundError(MESSAGES.notFound);
    const change = await this.forms.setStatus(id, status, statusChangedEvent);
    if (!change) throw new NotFoundError(MESSAGES.notFound);
    return change.form;
  }
}

export function isStatus(value: unknown): value is ContactFormStatus {
  return (CONTACT_FORM_STATUSES as readonly unknown[]).includes(value);
}

/** support.contact_form.submitted: the new form's id. */
export const submittedEvent: EventOf = (form) =>
  makeEvent('support.contact_form.submitted', ContactFormSubmitted, { contactFormId: form.id }, { source: SOURCE });

/** support.contact_form.status_changed: the form's id and the status it now has. */
export const statusChangedEvent: EventOf = (form) =>
  makeEvent('support.contact_form.status_changed', ContactFormStatusChanged, { contactFormId: form.id, status: form.status }, { source: SOURCE });
