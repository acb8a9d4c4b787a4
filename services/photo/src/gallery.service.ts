import { GALLERY, PAGES, REFUSALS, pageProblem } from '@snapcracks/http-contract';
import { InvalidArgumentError, UnauthenticatedError, type Caller } from '@snapcracks/kit';
import type { GalleryPhoto, GalleryQuery, GalleryRepository, PhotoPreview } from './gallery.pg-repository.js';

export type GalleryFilter = 'top_rated' | 'need_your_vote' | 'new_today' | 'new_this_week' | 'new_this_month' | 'all_snaps';

/** At most this many cards per GetGalleryCards call (the gateway asks for a page's worth it has not kept). */
export const MAX_GALLERY_CARDS = 100;

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
    const limit = request.limit || GALLERY.pageSize;
    // PAGES.maxPage is deeper than any real visitor goes, and keeps OFFSET (and page × limit) far inside int32.
    const problem = pageProblem(page, limit, PAGES.limits.gallery);
    if (problem) throw new InvalidArgumentError(problem);
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
        if (!caller) throw new UnauthenticatedError(REFUSALS.needYourVote);
        query = { order: 'fewest_votes', unratedBy: caller.userId, ...window };
        break;
      default:
        throw new InvalidArgumentError(GALLERY.unknownFilter);
    }
    const { photos, total } = await this.gallery.page(query);
    return { photos, total, totalPages: Math.ceil(total / limit) };
  }

  /** The newest approved photos, for the landing page's previews. */
  async previews(limit: number | undefined): Promise<PhotoPreview[]> {
    const count = limit || PAGES.limits.previews.default;
    const problem = pageProblem(1, count, PAGES.limits.previews);
    if (problem) throw new InvalidArgumentError(problem);
    return this.gallery.newest(count);
  }

  /** The cards of the approved photos among `ids`, in the order asked; ids not found or not approved are left out. */
  async cards(ids: number[]): Promise<GalleryPhoto[]> {
    if (ids.length > MAX_GALLERY_CARDS) throw new InvalidArgumentError(`At most ${MAX_GALLERY_CARDS} photos at a time`);
    return this.gallery.cards(ids);
  }

  refreshPrior(): Promise<{ mean: number; rescored: number }> {
    return this.gallery.refreshPrior(PRIOR_MIN_CHANGE);
  }
}
