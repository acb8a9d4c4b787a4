import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactFormStatus, type ContactForm } from '@snapcracks/proto/support/v1';

import type { Clients } from '../clients.js';
import { routeRateLimit } from '../plugins/security.js';

/** The contact form's messages (spec §5); the support service says the same, checked here so bad input costs no call. */
export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be 100 characters or less',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  subjectRequired: 'Subject is required',
  subjectTooLong: 'Subject must be 200 characters or less',
  messageRequired: 'Message is required',
  messageTooLong: 'Message must be 2000 characters or less',
  statusInvalid: 'Status must be new, in_progress or resolved',
  idInvalid: 'Invalid contact form id',
  pageInvalid: 'page must be a whole number from 1 to 100000',
  limitInvalid: 'limit must be a whole number from 1 to 100',
  filterInvalid: 'status must be new, in_progress, resolved or all',
} as const;

const STATUS_NAMES = ['new', 'in_progress', 'resolved'] as const;
type StatusName = (typeof STATUS_NAMES)[number];
const TO_MESSAGE: Record<StatusName, ContactFormStatus> = {
  new: ContactFormStatus.CONTACT_FORM_STATUS_NEW,
  in_progress: ContactFormStatus.CONTACT_FORM_STATUS_IN_PROGRESS,
  resolved: ContactFormStatus.CONTACT_FORM_STATUS_RESOLVED,
};
const FROM_MESSAGE: Partial<Record<ContactFormStatus, StatusName>> = {
  [ContactFormStatus.CONTACT_FORM_STATUS_NEW]: 'new',
  [ContactFormStatus.CONTACT_FORM_STATUS_IN_PROGRESS]: 'in_progress',
  [ContactFormStatus.CONTACT_FORM_STATUS_RESOLVED]: 'resolved',
};

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

// A body that is not an object lacks its first field.
const contactBody = z.object(
  {
    name: required(CONTACT_MESSAGES.nameRequired).max(100, CONTACT_MESSAGES.nameTooLong),
    email: required(CONTACT_MESSAGES.emailRequired).max(254, CONTACT_MESSAGES.emailInvalid).pipe(z.email(CONTACT_MESSAGES.emailInvalid)),
    subject: required(CONTACT_MESSAGES.subjectRequired).max(200, CONTACT_MESSAGES.subjectTooLong),
    message: required(CONTACT_MESSAGES.messageRequired).max(2000, CONTACT_MESSAGES.messageTooLong),
  },
  { error: CONTACT_MESSAGES.nameRequired },
);

const wholeNumber = (message: string, max: number) =>
  z
    .string({ error: message })
    .regex(/^[1-9]\d{0,5}$/, message)
    .transform(Number)
    .refine((n) => n <= max, message);

const listQuery = z.object({
  status: z.enum([...STATUS_NAMES, 'all'], { error: CONTACT_MESSAGES.filterInvalid }).default('all'),
  page: wholeNumber(CONTACT_MESSAGES.pageInvalid, 100_000).default(1),
  limit: wholeNumber(CONTACT_MESSAGES.limitInvalid, 100).default(50),
});

/** Contact form ids in paths: positive integers only, so "1.5", "-1" or "1e3" are a 400, never a lookup. */
const contactFormIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, CONTACT_MESSAGES.idInvalid)
    .transform(Number),
});
const statusBody = z.object({ status: z.enum(STATUS_NAMES, { error: CONTACT_MESSAGES.statusInvalid }) }, { error: CONTACT_MESSAGES.statusInvalid });

/** A contact form as the admin's support screen reads it (spec §7). */
const contactFormJson = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(STATUS_NAMES),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
const countsJson = z.object({ new: z.number(), in_progress: z.number(), resolved: z.number(), total: z.number() });
const listJson = z.object({ items: z.array(contactFormJson), counts: countsJson, total: z.number(), page: z.number(), totalPages: z.number() });

function toContactFormJson(form: ContactForm | undefined): z.infer<typeof contactFormJson> {
  if (!form) throw new Error('The support service answered without a contact form');
  return {
    id: form.id,
    name: form.name,
    email: form.email,
    subject: form.subject,
    message: form.message,
    status: FROM_MESSAGE[form.status] ?? 'new',
    createdAt: form.createdAt?.toISOString() ?? null,
    updatedAt: form.updatedAt?.toISOString() ?? null,
  };
}

/** Admin-only routes check the caller before the input, so the signed out and members learn nothing from a 400. */
const adminFirst = async (request: FastifyRequest) => {
  await request.requireAdmin();
};

/**
 * The contact form (public, rate limited per client address) and the admin's support list and status changes
 * (spec §7 Contact, Admin). One support-service call each; the service checks the rules and the admin flag again.
 */
export default async function contactRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.post(
    '/api/contact',
    // Per client address (RATE_LIMIT_CONTACT): a person writes a handful of messages, a spammer many.
    { config: routeRateLimit(app, 'contact'), schema: { body: contactBody, response: { 201: contactFormJson } } },
    async (request, reply) => {
      const { name, email, subject, message } = request.body;
      const { contactForm } = await clients.support.call.submitContactForm({ name, email, subject, message }, { caller: null });
      return reply.code(201).send(toContactFormJson(contactForm));
    },
  );

  route.get(
    '/api/admin/contact-forms',
    { preValidation: adminFirst, schema: { querystring: listQuery, response: { 200: listJson } } },
    async (request, reply) => {
      const caller = await request.requireAdmin();
      const { status, page, limit } = request.query;
      const answer = await clients.support.call.listContactForms(
        { status: status === 'all' ? ContactFormStatus.CONTACT_FORM_STATUS_UNSPECIFIED : TO_MESSAGE[status], page: { page, limit } },
        { caller },
      );
      const counts = answer.counts;
      reply.header('cache-control', 'no-store');
      return {
        items: answer.contactForms.map(toContactFormJson),
        counts: { new: counts?.newCount ?? 0, in_progress: counts?.inProgressCount ?? 0, resolved: counts?.resolvedCount ?? 0, total: counts?.totalCount ?? 0 },
        total: answer.total,
        page,
        totalPages: answer.totalPages,
      };
    },
  );

  route.patch(
    '/api/admin/contact-forms/:id/status',
    { preValidation: adminFirst, schema: { params: contactFormIdParams, body: statusBody, response: { 200: contactFormJson } } },
    async (request) => {
      const caller = await request.requireAdmin();
      const { contactForm } = await clients.support.call.setContactFormStatus({ id: request.params.id, status: TO_MESSAGE[request.body.status] }, { caller });
      return toContactFormJson(contactForm);
    },
  );
}
