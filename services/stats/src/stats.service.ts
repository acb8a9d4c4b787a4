import { DASHBOARD } from '@snapcracks/http-contract';

import type { RatedPhotoRecord, StatsRepository } from './stats.repository.js';
import type { Stars } from './stats.projection.js';

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

/** A photo on the member's dashboard: its average is its ratings' sum over its votes. */
export interface RatedPhoto {
  id: number;
  filename: string;
  description: string | null;
  averageRating: number;
  voteCount: number;
}

/** A member's dashboard figures (spec §3 User stats); the definitions are in docs/stats.md. */
export interface UserStats {
  totalUploads: number;
  approvedUploads: number;
  pendingUploads: number;
  rejectedUploads: number;
  uploadsThisWeek: number;
  averageRating: number;
  recentAverageRating: number;
  /** Votes the recent average is taken over (0: no recent average). */
  recentVoteCount: number;
  totalVotes: number;
  rankByUploads: number | null;
  rankByAverageRating: number | null;
  totalActiveUsers: number;
  highestRatedPhoto: RatedPhoto | null;
  lowestRatedPhoto: RatedPhoto | null;
  /** The votes received on the approved photos per rating, 1 star first: the dashboard's distribution. */
  ratingDistribution: Stars;
}

/** Spec §9: the rating rank needs votes received in total on one's approved photos. */
export const MIN_VOTES_FOR_RATING_RANK = DASHBOARD.rankMinVotes;
/** Spec §9: the recent average is over the last approved photos. */
export const RECENT_APPROVED_PHOTOS = DASHBOARD.recentPhotos;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC week holding `now`: [Monday midnight, next Monday midnight), as the gallery's new-this-week. */
export function utcWeekOf(now: Date): { from: Date; to: Date } {
  const { from: today } = utcDayOf(now);
  const from = new Date(today.getTime() - ((now.getUTCDay() + 6) % 7) * DAY_MS);
  return { from, to: new Date(from.getTime() + 7 * DAY_MS) };
}

/** sum / count, 0 without votes. */
const averageOf = (ratingSum: number, votes: number): number => (votes > 0 ? ratingSum / votes : 0);

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

  /**
   * The member's own figures from their photo rows (one indexed scan) and their rankings from the owners' rows (one
   * count). Ranks are 1 + the number of active members strictly ahead, so ties share a rank; a member with no approved
   * photo has no upload rank, and one with fewer than MIN_VOTES_FOR_RATING_RANK votes received no rating rank.
   */
  async user(ownerId: string): Promise<UserStats> {
    const week = utcWeekOf(this.now());
    const [photos, standing] = await Promise.all([
      this.stats.memberPhotos(ownerId, { uploadedFrom: week.from, uploadedTo: week.to, recent: RECENT_APPROVED_PHOTOS }),
      this.stats.memberStanding(ownerId, { minVotes: MIN_VOTES_FOR_RATING_RANK }),
    ]);
    const rated = (photo: RatedPhotoRecord | null): RatedPhoto | null =>
      photo && { id: photo.id, filename: photo.filename, description: photo.description, averageRating: averageOf(photo.ratingSum, photo.voteCount), voteCount: photo.voteCount };
    return {
      totalUploads: photos.total,
      approvedUploads: photos.approved,
      pendingUploads: photos.pending,
      rejectedUploads: photos.rejected,
      uploadsThisWeek: photos.uploadedBetween,
      averageRating: averageOf(photos.ratingSum, photos.votes),
      recentAverageRating: averageOf(photos.recentRatingSum, photos.recentVotes),
      recentVoteCount: photos.recentVotes,
      totalVotes: photos.votes,
      rankByUploads: standing.approvedPhotos > 0 ? standing.withMoreApproved + 1 : null,
      rankByAverageRating: standing.approvedPhotos > 0 && standing.votes >= MIN_VOTES_FOR_RATING_RANK ? standing.withBetterAverage + 1 : null,
      totalActiveUsers: standing.activeMembers,
      highestRatedPhoto: rated(photos.highest),
      lowestRatedPhoto: rated(photos.lowest),
      ratingDistribution: photos.stars,
    };
  }
}
