import { REPORTS, REVIEW_FIGURES } from '@snapcracks/http-contract';
import { InvalidArgumentError } from '@snapcracks/kit';
import type { CategoryCount, ReporterRecord, ReviewFiguresRepository } from './review-figures.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReviewFigures {
  days: number;
  since: Date;
  decisions: { adminId: string; total: number; perDay: { day: string; count: number }[] }[];
  medianUploadToDecisionSeconds: number | null;
  measuredDecisions: number;
  reportsByCategory: CategoryCount[];
  reportersMostlyDismissed: ReporterRecord[];
}

/** What admins learn about their reviewing: who decides how much, how long photos wait, and how reports turn out. */
export class ReviewFiguresService {
  constructor(
    private readonly figures: ReviewFiguresRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The last `days` UTC days, today included (0 means the default). */
  async figuresFor(requestedDays: number): Promise<ReviewFigures> {
    const days = requestedDays === 0 ? REVIEW_FIGURES.defaultDays : requestedDays;
    if (!Number.isInteger(days) || days < 1 || days > REVIEW_FIGURES.maxDays) throw new InvalidArgumentError(REVIEW_FIGURES.daysInvalid);
    const now = this.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
    const [perDay, median, categories, reporters] = await Promise.all([
      this.figures.decisionsPerAdminPerDay(since),
      this.figures.medianUploadToFirstDecision(since),
      this.figures.reportsByCategory(since),
      this.figures.reportersMostlyDismissed(REVIEW_FIGURES.minDecidedReports, REVIEW_FIGURES.mostlyDismissedShare, REVIEW_FIGURES.maxReporters),
    ]);
    const byAdmin = new Map<string, ReviewFigures['decisions'][number]>();
    for (const { adminId, day, count } of perDay) {
      const admin = byAdmin.get(adminId) ?? byAdmin.set(adminId, { adminId, total: 0, perDay: [] }).get(adminId)!;
      admin.total += count;
      admin.perDay.push({ day, count });
    }
    const counted = new Map(categories.map((row) => [row.category, row]));
    return {
      days,
      since,
      decisions: [...byAdmin.values()].sort((a, b) => b.total - a.total || a.adminId.localeCompare(b.adminId)),
      medianUploadToDecisionSeconds: median.seconds,
      measuredDecisions: median.measured,
      // Every category, so a quiet one shows as none rather than missing.
      reportsByCategory: REPORTS.categories.map((category) => counted.get(category) ?? { category, total: 0, open: 0, dismissed: 0, removed: 0 }),
      reportersMostlyDismissed: reporters,
    };
  }
}
