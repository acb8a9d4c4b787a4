import type { ProjectionStore, VoteChange } from '../projection.store.js';
import { NO_STARS, applyVoteTotals, starsMoveApplies, type PhotoRow, type Stars, unknownPhoto } from '../stats.projection.js';

/**
 * The ProjectionStore in memory, for unit tests of the consumers' merge rules: the rows, their star counts and the
 * deleted accounts. What the rows count for is SQL's (photo_figures), tested against PostgreSQL.
 */
export class InMemoryProjectionStore implements ProjectionStore {
  readonly photos = new Map<number, PhotoRow>();
  readonly deletedOwners = new Set<string>();
  /** Each photo's star counts and the version a rebuild read them at (the SQL keeps them in the photo's row). */
  readonly stars = new Map<number, { stars: Stars; baseline: number }>();

  async lockPhoto(photoId: number): Promise<PhotoRow> {
    if (!this.photos.has(photoId)) this.photos.set(photoId, unknownPhoto(photoId));
    return { ...this.photos.get(photoId)! };
  }

  async savePhoto(row: PhotoRow): Promise<void> {
    this.photos.set(row.photoId, { ...row });
  }

  /** The rules applied one vote after the other, in the order given (the SQL applies a batch at once). */
  async applyVotes(votes: VoteChange[]): Promise<void> {
    for (const { photoId, totals, stars } of votes) {
      const after = applyVoteTotals(await this.lockPhoto(photoId), totals);
      if (after) await this.savePhoto(after);
      const stored = this.stars.get(photoId) ?? { stars: [...NO_STARS], baseline: 0 };
      if (stars && starsMoveApplies(totals.version, stored.baseline)) {
        this.stars.set(photoId, { ...stored, stars: stored.stars.map((n, i) => n + stars[i]!) as Stars });
      }
    }
  }

  async markOwnerDeleted(ownerId: string): Promise<void> {
    this.deletedOwners.add(ownerId);
  }
}
