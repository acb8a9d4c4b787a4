import { CONTACT, PAGES, pageProblem, schemas } from '@snapcracks/http-contract';
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

export const CONTACT_FORM_NOT_FOUND = 'Contact form not found';
/** Ids are PostgreSQL `integer`s: anything larger names no form. */
const MAX_ID = 2_147_483_647;
const SOURCE = 'support';

/** The contact form's rules (spec §5), as the gateway and the web app check them: every field trimmed, then checked. */
export const contactFormSchema = schemas.contactBody;

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

  /**
   * Stores a valid submission, trimmed, with its event; INVALID_ARGUMENT with the spec's message otherwise. `userId` is
   * the member who sent it while signed in (their own messages, and the notice when one is resolved).
   */
  submit(input: Omit<NewContactForm, 'userId'>, userId: string | null = null): Promise<ContactForm> {
    const parsed = contactFormSchema.safeParse(input);
    if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? CONTACT.name.required);
    return this.forms.create({ ...parsed.data, userId }, submittedEvent);
  }

  /** The member's own messages, newest first. */
  mine(userId: string): Promise<ContactForm[]> {
    return this.forms.listByUser(userId);
  }

  async list({ status, page = 0, limit = 0 }: ListQuery): Promise<ContactFormPage> {
    const pageNumber = page === 0 ? 1 : page;
    const size = limit === 0 ? PAGES.limits.contactForms.default : limit;
    const problem = pageProblem(pageNumber, size, PAGES.limits.contactForms);
    if (problem) throw new InvalidArgumentError(problem);
    const [contactForms, counts] = await Promise.all([
      this.forms.list({ status, offset: (pageNumber - 1) * size, limit: size }),
      this.forms.countByStatus(),
    ]);
    const total = status === null ? counts.total : counts[status];
    return { contactForms, counts, total, totalPages: Math.ceil(total / size) };
  }

  /** Moves a form to `status`, from whatever it is now; NOT_FOUND for an unknown id. */
  async setStatus(id: number, status: ContactFormStatus): Promise<ContactForm> {
    if (!isStatus(status)) throw new InvalidArgumentError(CONTACT.statusInvalid);
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw new NotFoundError(CONTACT_FORM_NOT_FOUND);
    const change = await this.forms.setStatus(id, status, statusChangedEvent);
    if (!change) throw new NotFoundError(CONTACT_FORM_NOT_FOUND);
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
  makeEvent(
    'support.contact_form.status_changed',
    ContactFormStatusChanged,
    { contactFormId: form.id, status: form.status, userId: form.userId ?? undefined },
    { source: SOURCE },
  );
