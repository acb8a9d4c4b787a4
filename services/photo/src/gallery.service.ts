import { InvalidArgumentError, UnauthenticatedError, type Caller } from '@snapcracks/kit';
import type { GalleryPhoto, GalleryQuery, GalleryRepository, PhotoPreview } from './gallery.pg-repository.js';

export type GalleryFilter = 'top_rated' | 'need_your_vote' | 'new_today' | 'new_this_week' | 'new_this_month' | 'all_snaps';

export const GALLERY_PAGE_SIZE = 9;
export const MAX_GALLERY_PAGE_SIZE = 50;
export const MAX_PREVIEWS = 100;
/** Deeper than any real visitor goes; keeps OFFSET (and page × limit) far inside int32. */
export const MAX_GALLERY_PAGE = 100_000;
/** The prior's mean is rewritten (and every approved photo rescored) only when it moved at least this much. */
export const PRIOR_MIN_CHANGE = 0.01;

export interface GalleryPage {
  photos: GalleryPhoto[];
  total: number;
  totalPages: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The start of each new-* window, in UTC: today from midnight, this week from Monday midnight, this month from the
 * 1st at midnight. Calendar windows, so a page's membership changes only when a photo is approved, or at midnight.
 */
export function windowStart(filter: 'new_today' | 'new_this_week' | 'new_this_month', now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (filter === 'new_today') return new Date(today);
  if (filter === 'new_this_week') return new Date(today - ((now.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The public gallery (spec §2 Gallery home): approved photos only, ever. Top rated orders by a Bayesian average
 * (score = (C·m + sum) / (C + n); C and m live in the database, see docs/votes-and-gallery.md), need-your-vote shows the
 * viewer what they have not rated yet, fewest votes first, and the others list the newest approvals.
 */
export class GalleryService {
  constructor(
    private readonly gallery: GalleryRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async page(caller: Caller | null, filter: GalleryFilter | null, request: { page?: number; limit?: number }): Promise<GalleryPage> {
    const page = request.page || 1;
    const limit = request.limit || GALLERY_PAGE_SIZE;
    if (!Number.isInteger(page) || page < 1 || page > MAX_GALLERY_PAGE) throw new InvalidArgumentError(`Page must be a whole number from 1 to ${MAX_GALLERY_PAGE}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_GALLERY_PAGE_SIZE) throw new InvalidArgumentError(`Limit must be between 1 and ${MAX_GALLERY_PAGE_SIZE}`);
    const window = { offset: (page - 1) * limit, limit };

    let query: GalleryQuery;
    switch (filter) {
      case 'top_rated':
        query = { order: 'top_rated', ...window };
        break;
      case 'all_snaps':
        query = { order: 'newest', ...window };
        break;
      case 'new_today':
      case 'new_this_week':
      case 'new_this_month':
        query = { order: 'newest', approvedFrom: windowStart(filter, this.now()), ...window };
        break;
      case 'need_your_vote':
        if (!caller) throw new UnauthenticatedError('Sign in to see the photos that need your vote');
        query = { order: 'fewest_votes', unratedBy: caller.userId, ...window };
        break;
      default:
        throw new InvalidArgumentError('Unknown gallery filter');
    }
    const { photos, total } = await this.gallery.page(query);
    return { photos, total, totalPages: Math.ceil(total / limit) };
  }

  /** The newest approved photos, for the landing page's previews. */
  async previews(limit: number | undefined): Promise<PhotoPreview[]> {
    const count = limit || 20;
    if (!Number.isInteger(count) || count < 1 || count > MAX_PREVIEWS) throw new InvalidArgumentError(`Limit must be between 1 and ${MAX_PREVIEWS}`);
    return this.gallery.newest(count);
  }

  refreshPrior(): Promise<{ mean: number; rescored: number }> {
    return this.gallery.refreshPrior(PRIOR_MIN_CHANGE);
  }
}
