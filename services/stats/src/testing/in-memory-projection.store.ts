import type { CommunityFigures } from '../stats.repository.js';
import type { ProjectionStore, VoteChange } from '../projection.store.js';
import { NO_COUNTERS, NO_STARS, applyVoteTotals, changeOf, starsMoveApplies, type PhotoRow, type RowChange, type Stars, unknownPhoto } from '../stats.projection.js';

export interface InMemoryOwner {
  approvedPhotos: number;
  votes: number;
  ratingSum: number;
  deleted: boolean;
}

/** The ProjectionStore in memory, for unit tests of the consumers: rows, owners' counts and unsharded counters. */
export class InMemoryProjectionStore implements ProjectionStore {
  readonly photos = new Map<number, PhotoRow>();
  readonly owners = new Map<string, InMemoryOwner>();
  readonly figures: CommunityFigures = { ...NO_COUNTERS };
  /** Each photo's star counts and the version a rebuild read them at (the SQL keeps them in the photo's row). */
  readonly stars = new Map<number, { stars: Stars; baseline: number }>();

  async lockPhoto(photoId: number): Promise<PhotoRow> {
    if (!this.photos.has(photoId)) this.photos.set(photoId, unknownPhoto(photoId));
    return { ...this.photos.get(photoId)! };
  }

  async savePhoto(row: PhotoRow, change: RowChange): Promise<void> {
    this.photos.set(row.photoId, { ...row });
    for (const { ownerId, approvedPhotos, votes, ratingSum } of change.owners) {
      const owner = this.owners.get(ownerId) ?? { approvedPhotos: 0, votes: 0, ratingSum: 0, deleted: false };
      const was = owner.approvedPhotos;
      owner.approvedPhotos += approvedPhotos;
      owner.votes += votes;
      owner.ratingSum += ratingSum;
      this.owners.set(ownerId, owner);
      this.figures.distinctUploaders += Number(owner.approvedPhotos > 0) - Number(was > 0);
    }
    for (const key of Object.keys(change.counters) as (keyof CommunityFigures)[]) this.figures[key] += change.counters[key];
  }

  /** The rules applied one vote after the other, in the order given (the SQL applies a batch at once). */
  async applyVotes(votes: VoteChange[]): Promise<void> {
    for (const { photoId, totals, stars } of votes) {
      const before = await this.lockPhoto(photoId);
      const after = applyVoteTotals(before, totals);
      if (after) await this.savePhoto(after, changeOf(before, after));
      const stored = this.stars.get(photoId) ?? { stars: [...NO_STARS], baseline: 0 };
      if (stars && starsMoveApplies(totals.version, stored.baseline)) {
        this.stars.set(photoId, { ...stored, stars: stored.stars.map((n, i) => n + stars[i]!) as Stars });
      }
    }
  }

  async markOwnerDeleted(ownerId: string): Promise<void> {
    this.owners.set(ownerId, { ...(this.owners.get(ownerId) ?? { approvedPhotos: 0, votes: 0, ratingSum: 0 }), deleted: true });
  }
}
