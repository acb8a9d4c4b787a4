import nodemailer from 'nodemailer';
import type { DecodedEvent } from '@snapcracks/kit';
import type { NotificationStore } from './notification.store.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends one email; throws when the server refuses it (the event is then delivered again later). */
export type SendMail = (mail: Mail) => Promise<void>;

/** An SMTP sender through nodemailer (the server from SMTP_URL, the sender SMTP_FROM). */
export function smtpSender(url: string, from: string): SendMail {
  const transport = nodemailer.createTransport(url);
  return async (mail) => {
    await transport.sendMail({ from, ...mail });
  };
}

/**
 * Emails a new notice to its member when they want email (their preference, on by default) and their address is
 * known, once: the notice is recorded as emailed in the consumer's transaction, before the mail goes, so a failed send
 * rolls the record back and the event comes again, and a redelivered event after a send finds it recorded.
 */
export async function emailNotice(event: DecodedEvent<'support.notification.created'>, store: NotificationStore, send: SendMail, publicUrl?: string): Promise<void> {
  const { id, userId, title, body } = event.payload;
  if (!userId || !(await store.settings(userId)).email) return;
  const recipient = await store.recipient(userId);
  if (!recipient?.email) return;
  if (!(await store.markEmailed(id))) return;
  const greeting = recipient.name ? `Hello ${recipient.name},` : 'Hello,';
  const link = publicUrl ? `\n\nSee it on Snap Cracks: ${publicUrl.replace(/\/$/, '')}/notifications` : '';
  const footer = '\n\nYou get these emails because email notifications are on in your settings; turn them off there at any time.';
  await send({ to: recipient.email, subject: title, text: `${greeting}\n\n${body}${link}${footer}` });
}
