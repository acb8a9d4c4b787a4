import { NOTIFICATIONS, PAGES, pageProblem } from '@snapcracks/http-contract';
import { InvalidArgumentError, NotFoundError } from '@snapcracks/kit';
import type { Notice, NoticeSettings, NotificationStore } from './notification.store.js';

/** The most a reconnecting stream is sent of what it missed; older ones are in the list. */
export const MAX_MISSED = 100;

/** A member's own notices and preferences (the gRPC edge checks they are a member; every call is about the caller). */
export class NotificationService {
  constructor(
    private readonly store: NotificationStore,
    private readonly emailAvailable: boolean,
  ) {}

  async list(userId: string, request: { page?: number; limit?: number }, afterId?: number): Promise<{ notices: Notice[]; total: number; totalPages: number; unread: number }> {
    if (afterId !== undefined) {
      if (!Number.isSafeInteger(afterId) || afterId < 0) throw new InvalidArgumentError(NOTIFICATIONS.idInvalid);
      const [notices, unread] = await Promise.all([this.store.after(userId, afterId, MAX_MISSED), this.store.unread(userId)]);
      return { notices, total: notices.length, totalPages: 1, unread };
    }
    const page = request.page || 1;
    const limit = request.limit || PAGES.limits.notifications.default;
    const problem = pageProblem(page, limit, PAGES.limits.notifications);
    if (problem) throw new InvalidArgumentError(problem);
    const { notices, total, unread } = await this.store.page(userId, (page - 1) * limit, limit);
    return { notices, total, totalPages: Math.ceil(total / limit), unread };
  }

  async markRead(userId: string, id: number): Promise<number> {
    if (!Number.isSafeInteger(id) || id < 1 || !(await this.store.markRead(userId, id))) throw new NotFoundError(NOTIFICATIONS.notFound);
    return this.store.unread(userId);
  }

  async markAllRead(userId: string): Promise<number> {
    await this.store.markAllRead(userId);
    return 0;
  }

  async settings(userId: string): Promise<NoticeSettings & { emailAvailable: boolean }> {
    return { ...(await this.store.settings(userId)), emailAvailable: this.emailAvailable };
  }

  async updateSettings(userId: string, change: Partial<NoticeSettings>): Promise<NoticeSettings & { emailAvailable: boolean }> {
    const clean: Partial<NoticeSettings> = {};
    if (change.email !== undefined) clean.email = change.email;
    if (change.push !== undefined) clean.push = change.push;
    return { ...(await this.store.updateSettings(userId, clean)), emailAvailable: this.emailAvailable };
  }
}
