import type { StatsRepository } from './stats.repository.js';

/** The gallery's stats strip: the whole community's approved photos. */
export interface GalleryStats {
  photoCount: number;
  totalVotes: number;
  ratedFourOrHigher: number;
  distinctUploaders: number;
}

/** The admin dashboard's figures. */
export interface AdminStats {
  /** Photos pending now. */
  pendingReviews: number;
  /** Photos approved (or rejected) today, UTC day, that still have that status. */
  approvedToday: number;
  rejectedToday: number;
  /** Photos of any status. */
  totalPhotos: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day holding `now`: [midnight, next midnight). */
export function utcDayOf(now: Date): { from: Date; to: Date } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/**
 * Stats rules: which figures answer which question. Every figure comes from the read models the consumers keep
 * (counters maintained with each change, and indexed counts), never from a scan per request. Who may ask is checked
 * at the gRPC edge (the gallery's figures are public, the admin's need the admin flag).
 */
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async gallery(): Promise<GalleryStats> {
    const figures = await this.stats.communityFigures();
    return {
      photoCount: figures.approvedPhotos,
      totalVotes: figures.votesOnApproved,
      ratedFourOrHigher: figures.ratedFourOrHigher,
      distinctUploaders: figures.distinctUploaders,
    };
  }

  async admin(): Promise<AdminStats> {
    const { from, to } = utcDayOf(this.now());
    const [figures, today] = await Promise.all([this.stats.communityFigures(), this.stats.reviewedBetween(from, to)]);
    return {
      pendingReviews: figures.pendingPhotos,
      approvedToday: today.approved,
      rejectedToday: today.rejected,
      totalPhotos: figures.photos,
    };
  }
}
