import { CONTACT } from '@snapcracks/http-contract';
import { InvalidArgumentError, requireAdmin, requireMember, type Handlers } from '@snapcracks/kit';
import {
  ContactFormStatus as StatusMessage,
  type ContactForm as ContactFormMessage,
  type ContactFormCounts,
  type SupportServiceServer,
} from '@snapcracks/proto/support/v1';
import type { ContactForm, ContactFormStatus, StatusCounts } from '../contact-form.repository.js';
import { type SupportService } from '../support.service.js';
import type { NotificationService } from '../notifications/notification.service.js';

const TO_MESSAGE: Record<ContactFormStatus, StatusMessage> = {
  new: StatusMessage.CONTACT_FORM_STATUS_NEW,
  in_progress: StatusMessage.CONTACT_FORM_STATUS_IN_PROGRESS,
  resolved: StatusMessage.CONTACT_FORM_STATUS_RESOLVED,
};
const FROM_MESSAGE = new Map<StatusMessage, ContactFormStatus>(Object.entries(TO_MESSAGE).map(([name, value]) => [value, name as ContactFormStatus]));

/** Protocol edge: submitting is open to anyone (signed in or not); listing and status changes are an admin's. */
export function supportHandlers(service: SupportService, notifications: NotificationService): Handlers<SupportServiceServer> {
  return {
    async listNotifications(request, ctx) {
      const { userId } = requireMember(ctx);
      const page = await notifications.list(userId, request.page ?? {}, request.afterId);
      return { notifications: page.notices.map(({ userId: _owner, ...notice }) => ({ ...notice, photoId: notice.photoId ?? undefined })), total: page.total, totalPages: page.totalPages, unread: page.unread };
    },

    async markNotificationRead(request, ctx) {
      return { unread: await notifications.markRead(requireMember(ctx).userId, request.id) };
    },

    async markAllNotificationsRead(_request, ctx) {
      return { unread: await notifications.markAllRead(requireMember(ctx).userId) };
    },

    async getNotificationSettings(_request, ctx) {
      return { settings: await notifications.settings(requireMember(ctx).userId) };
    },

    async updateNotificationSettings(request, ctx) {
      return { settings: await notifications.updateSettings(requireMember(ctx).userId, { email: request.email, push: request.push }) };
    },

    async submitContactForm(request, ctx) {
      const { name, email, subject, message } = request;
      return { contactForm: toMessage(await service.submit({ name, email, subject, message }, ctx.caller?.userId ?? null)) };
    },

    async listMyContactForms(_request, ctx) {
      return { contactForms: (await service.mine(requireMember(ctx).userId)).map(toMessage) };
    },

    async listContactForms(request, ctx) {
      requireAdmin(ctx);
      const status = request.status === StatusMessage.CONTACT_FORM_STATUS_UNSPECIFIED ? null : statusOf(request.status);
      const page = await service.list({ status, page: request.page?.page, limit: request.page?.limit });
      return { contactForms: page.contactForms.map(toMessage), counts: toCounts(page.counts), total: page.total, totalPages: page.totalPages };
    },

    async setContactFormStatus(request, ctx) {
      requireAdmin(ctx);
      return { contactForm: toMessage(await service.setStatus(request.id, statusOf(request.status))) };
    },
  };
}

function statusOf(value: StatusMessage): ContactFormStatus {
  const status = FROM_MESSAGE.get(value);
  if (!status) throw new InvalidArgumentError(CONTACT.statusInvalid);
  return status;
}

export function toMessage(form: ContactForm): ContactFormMessage {
  return {
    id: form.id,
    name: form.name,
    email: form.email,
    subject: form.subject,
    message: form.message,
    status: TO_MESSAGE[form.status],
    userId: form.userId ?? undefined,
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
  };
}

function toCounts(counts: StatusCounts): ContactFormCounts {
  return { newCount: counts.new, inProgressCount: counts.in_progress, resolvedCount: counts.resolved, totalCount: counts.total };
}
