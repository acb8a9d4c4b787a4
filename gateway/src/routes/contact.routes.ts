import type { FastifyInstance } from 'fastify';
import { routes, type ContactForm as ContactFormJson, type ContactFormStatus as ContactFormStatusName } from '@snapcracks/http-contract';
import { ContactFormStatus, type ContactForm } from '@snapcracks/proto/support/v1';
import type { Clients } from '../clients.js';
import { toCaller } from '../plugins/current-user.js';
import { contractRoutes } from '../contract-route.js';

const TO_MESSAGE: Record<ContactFormStatusName, ContactFormStatus> = {
  new: ContactFormStatus.CONTACT_FORM_STATUS_NEW,
  in_progress: ContactFormStatus.CONTACT_FORM_STATUS_IN_PROGRESS,
  resolved: ContactFormStatus.CONTACT_FORM_STATUS_RESOLVED,
};
const FROM_MESSAGE: Partial<Record<ContactFormStatus, ContactFormStatusName>> = {
  [ContactFormStatus.CONTACT_FORM_STATUS_NEW]: 'new',
  [ContactFormStatus.CONTACT_FORM_STATUS_IN_PROGRESS]: 'in_progress',
  [ContactFormStatus.CONTACT_FORM_STATUS_RESOLVED]: 'resolved',
};

/** A contact form as the admin's support screen reads it (spec §7), and its sender in their copy of their data. */
export function toContactFormJson(form: ContactForm | undefined): ContactFormJson {
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

/**
 * The contact form (public, rate limited per client address) and the admin's support list and status changes
 * (spec §7 Contact, Admin). One support-service call each; the service checks the rules and the admin flag again.
 */
export default async function contactRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const serve = contractRoutes(app);

  // Per client address (RATE_LIMIT_CONTACT): a person writes a handful of messages, a spammer many.
  serve(routes.contact, async (request, reply) => {
    const { name, email, subject, message } = request.body;
    // A signed-in member's message is theirs (their own list, the notice when it is resolved); a disabled account may
    // still write to support, as a visitor.
    const user = await request.currentUser().catch(() => null);
    const caller = user?.hasAcceptedTerms ? toCaller(user) : null;
    const { contactForm } = await clients.support.call.submitContactForm({ name, email, subject, message }, { caller });
    return reply.code(201).send(toContactFormJson(contactForm));
  });

  serve(routes.contactForms, async (request, reply) => {
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
  });

  serve(routes.setContactFormStatus, async (request) => {
    const caller = await request.requireAdmin();
    const { contactForm } = await clients.support.call.setContactFormStatus({ id: request.params.id, status: TO_MESSAGE[request.body.status] }, { caller });
    return toContactFormJson(contactForm);
  });
}
