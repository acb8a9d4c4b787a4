import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { SupportServiceService } from '@snapcracks/proto/support/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaContactFormRepository } from './contact-form.repository.js';
import { SupportService } from './support.service.js';
import { supportHandlers } from './grpc/support.server.js';
import { loadSupportConfig } from './config.js';
import { NotificationStore } from './notifications/notification.store.js';
import { NotificationService } from './notifications/notification.service.js';
import { NOTICE_EVENTS, VOTE_NOTICE_EVENTS, applyMilestoneEvents, applyNoticeEvent } from './notifications/notices.consumer.js';
import { emailNotice, smtpSender } from './notifications/notice-mailer.js';

export const supportService = defineService<PrismaClient>({
  name: 'support',
  database: { schema: 'support', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox, consume, consumeBatches }) {
    const config = loadSupportConfig();
    const notifications = new NotificationService(new NotificationStore(prisma, outbox), config.SMTP_URL !== undefined);
    server.add(SupportServiceService, supportHandlers(new SupportService(new PrismaContactFormRepository(prisma, outbox)), notifications));
    // Members' notices from what happens to their photos, votes, reports and messages; each announced for the
    // gateways' live streams through the outbox.
    consume('notices', NOTICE_EVENTS, async (event, tx) => {
      await applyNoticeEvent(event, new NotificationStore(tx, outbox));
    });
    // Only the votes that reached a milestone, not every vote: a batch per transaction on the pool.
    consumeBatches('vote-notices', VOTE_NOTICE_EVENTS, (events, tx) => applyMilestoneEvents(events, tx, outbox));
    // Email, only when an SMTP server is configured.
    if (config.SMTP_URL && config.SMTP_FROM) {
      const send = smtpSender(config.SMTP_URL, config.SMTP_FROM);
      consume('notice-emails', ['support.notification.created'], (event, tx) => emailNotice(event, new NotificationStore(tx, outbox), send, config.PUBLIC_URL));
    }
  },
});

export { SupportService } from './support.service.js';
