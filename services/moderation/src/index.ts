import { fileURLToPath } from 'node:url';
import { defineService, type AdminRecordReader } from '@snapcracks/kit';
import { ModerationServiceService } from '@snapcracks/proto/moderation/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaModerationActionRepository } from './moderation-action.repository.js';
import { ModerationService } from './moderation.service.js';
import { moderationHandlers } from './grpc/moderation.server.js';
import { CleanupService } from './cleanup.service.js';
import { PHOTO_DECISION_EVENTS, photoDecisionsConsumer } from './consumers/photo-decisions.consumer.js';
import { PrismaReportRepository } from './report.repository.js';
import { ReportService } from './report.service.js';
import { loadModerationConfig } from './config.js';
import { PrismaReviewClaimRepository } from './review-claim.repository.js';
import { ReviewDeskService, claimGuard } from './review-desk.service.js';
import { PrismaReasonTemplateRepository } from './reason-template.repository.js';
import { ReasonTemplateService } from './reason-template.service.js';
import { PrismaReviewFiguresRepository } from './review-figures.repository.js';
import { ReviewFiguresService } from './review-figures.service.js';

export const moderationService = defineService<PrismaClient>({
  name: 'moderation',
  database: { schema: 'moderation', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox, logger, connect, consume }) {
    const photo = connect('photo', PhotoServiceClient);
    const storage = connect('storage', StorageServiceClient);
    // Auth: the acting admin's account, and which avatars are in use (the orphaned-files cleanup); storage: which blobs exist.
    const auth = connect('auth', AuthServiceClient);
    const actions = new PrismaModerationActionRepository(prisma);
    const claims = new PrismaReviewClaimRepository(prisma);
    const guard = claimGuard(claims);
    const service = new ModerationService(actions, photo.call, logger, undefined, guard);
    const cleanups = new CleanupService(actions, service, photo.call, storage.call, auth.call, logger);
    const adminRecord: AdminRecordReader = async (admin) => (await auth.call.getUser({ id: admin.userId }, { caller: admin })).user ?? null;
    const reportRepository = new PrismaReportRepository(prisma, outbox);
    const reports = new ReportService(reportRepository, actions, photo.call, { holdThreshold: loadModerationConfig().REPORTS_TO_HOLD }, logger, undefined, undefined, guard);
    const desk = {
      desk: new ReviewDeskService(claims, photo.call, reportRepository, actions),
      templates: new ReasonTemplateService(new PrismaReasonTemplateRepository(prisma)),
      figures: new ReviewFiguresService(new PrismaReviewFiguresRepository(prisma)),
    };
    server.add(ModerationServiceService, moderationHandlers(service, cleanups, reports, adminRecord, desk));
    consume(
      'decisions',
      PHOTO_DECISION_EVENTS,
      photoDecisionsConsumer((tx) => ({ actions: new PrismaModerationActionRepository(tx), reports: new PrismaReportRepository(tx, outbox) }), logger),
    );
  },
});

export { ModerationService } from './moderation.service.js';
