/**
 * Need-your-vote's order held in memory: every photo's state and rating totals as their events carry them, and the
 * approved photos sorted as the photo service's query sorts them (fewest votes first, then the newest approval, then
 * the highest id). Both kinds of fact carry versions and only a newer one replaces an older one, so events may be
 * applied in any order, before or after the photo service's stream of every photo, any number of times.
 */

/** A photo's state as photo.photo.* events carry it. */
export interface FeedPhotoState {
  ownerId: string;
  /** Its approval time while approved; null otherwise. */
  approvedAtMs: number | null;
  version: number;
  /** Deleted photos are remembered with their version, so an older state never brings one back. */
  deleted?: boolean;
}

/** A photo's rating totals as vote.vote.cast carries them. */
export interface FeedTotals {
  count: number;
  sum: number;
  version: number;
}

interface Listed {
  id: number;
  approvedAtMs: number;
}

/** Within one vote count: the newest approval first, then the highest id (the SQL order's last two keys). */
function before(a: Listed, b: Listed): boolean {
  return a.approvedAtMs !== b.approvedAtMs ? a.approvedAtMs > b.approvedAtMs : a.id > b.id;
}

/** Where `entry` is or would go in `bucket` (sorted by `before`). */
function position(bucket: Listed[], entry: Listed): number {
  let low = 0;
  let high = bucket.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(bucket[middle]!, entry)) low = middle + 1;
    else high = middle;
  }
  return low;
}

const NO_VOTES: FeedTotals = { count: 0, sum: 0, version: 0 };

export class FeedOrder {
  private readonly states = new Map<number, FeedPhotoState>();
  private readonly totals = new Map<number, FeedTotals>();
  /** Approved photos by vote count, each bucket in order; `counts` lists the non-empty buckets' counts ascending. */
  private readonly buckets = new Map<number, Listed[]>();
  private counts: number[] = [];
  private readonly ownedApproved = new Map<string, number>();
  private approved = 0;
  /** Grows whenever a photo joins or leaves the approved set: totals derived from that set are stale after it. */
  listingVersion = 0;

  /** Approved photos, the order's length before any member's exclusions. */
  get approvedCount(): number {
    return this.approved;
  }

  /** Applies a photo's state unless an equal or newer one is known (a deletion wins over a state of its version). */
  applyState(id: number, state: FeedPhotoState): boolean {
    const known = this.states.get(id);
    if (known && (known.version > state.version || (known.version === state.version && (known.deleted || !state.deleted)))) return false;
    const wasListed = known !== undefined && isListed(known);
    if (wasListed) this.unlist(id, known);
    this.states.set(id, state);
    if (isListed(state)) this.list(id, state);
    if (wasListed !== isListed(state)) this.listingVersion += 1;
    return true;
  }

  /** Applies a photo's totals unless newer ones are known. */
  applyTotals(id: number, totals: FeedTotals): boolean {
    const known = this.totals.get(id) ?? NO_VOTES;
    if (known.version >= totals.version) return false;
    const state = this.states.get(id);
    const listed = state !== undefined && isListed(state);
    if (listed && known.count !== totals.count) this.remove(known.count, { id, approvedAtMs: state.approvedAtMs! });
    this.totals.set(id, totals);
    if (listed && known.count !== totals.count) this.insert(totals.count, { id, approvedAtMs: state.approvedAtMs! });
    return true;
  }

  totalsOf(id: number): FeedTotals {
    return this.totals.get(id) ?? NO_VOTES;
  }

  isApproved(id: number): boolean {
    const state = this.states.get(id);
    return state !== undefined && isListed(state);
  }

  ownerOf(id: number): string | undefined {
    return this.states.get(id)?.ownerId;
  }

  /** How many approved photos `ownerId` has. */
  approvedOf(ownerId: string): number {
    return this.ownedApproved.get(ownerId) ?? 0;
  }

  /**
   * The ids of the approved photos in order, leaving out those `skip` names, from the `offset`-th that is not left out:
   * at most `limit` of them.
   */
  page(skip: (id: number, ownerId: string) => boolean, offset: number, limit: number): number[] {
    const ids: number[] = [];
    let toSkip = offset;
    for (const count of this.counts) {
      for (const { id } of this.buckets.get(count)!) {
        if (skip(id, this.states.get(id)!.ownerId)) continue;
        if (toSkip > 0) {
          toSkip -= 1;
          continue;
        }
        ids.push(id);
        if (ids.length === limit) return ids;
      }
    }
    return ids;
  }

  private list(id: number, state: FeedPhotoState): void {
    this.insert(this.totalsOf(id).count, { id, approvedAtMs: state.approvedAtMs! });
    this.approved += 1;
    this.ownedApproved.set(state.ownerId, this.approvedOf(state.ownerId) + 1);
  }

  private unlist(id: number, state: FeedPhotoState): void {
    this.remove(this.totalsOf(id).count, { id, approvedAtMs: state.approvedAtMs! });
    this.approved -= 1;
    const owned = this.approvedOf(state.ownerId) - 1;
    if (owned > 0) this.ownedApproved.set(state.ownerId, owned);
    else this.ownedApproved.delete(state.ownerId);
  }

  private insert(count: number, entry: Listed): void {
    let bucket = this.buckets.get(count);
    if (!bucket) {
      bucket = [];
      this.buckets.set(count, bucket);
      // A few hundred counts at most: a linear search is enough.
      const at = this.counts.findIndex((c) => c > count);
      this.counts.splice(at === -1 ? this.counts.length : at, 0, count);
    }
    bucket.splice(position(bucket, entry), 0, entry);
  }

  private remove(count: number, entry: Listed): void {
    const bucket = this.buckets.get(count);
    if (!bucket) return;
    const at = position(bucket, entry);
    if (bucket[at]?.id !== entry.id) return;
    bucket.splice(at, 1);
    if (bucket.length === 0) {
      this.buckets.delete(count);
      this.counts = this.counts.filter((c) => c !== count);
    }
  }
}

function isListed(state: FeedPhotoState): boolean {
  return !state.deleted && state.approvedAtMs !== null;
}
