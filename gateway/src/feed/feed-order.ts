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

/** Where `entry` is or would go in `sorted` (sorted by `before`). */
function position(sorted: Listed[], entry: Listed): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(sorted[middle]!, entry)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Entries a chunk holds before it is split in two. */
const CHUNK = 512;

/**
 * The photos of one vote count, in order, as a list of sorted chunks of at most CHUNK entries: a vote moves a photo
 * out of one bucket and into the next, and splicing one array of ten thousand entries (a bucket of a large community)
 * twice per vote cost more than the rest of the vote's event; a chunk moves at most CHUNK.
 */
class Bucket {
  private chunks: Listed[][] = [];
  size = 0;

  insert(entry: Listed): void {
    this.size += 1;
    if (this.chunks.length === 0) {
      this.chunks.push([entry]);
      return;
    }
    const chunk = this.chunks[this.chunkFor(entry)]!;
    chunk.splice(position(chunk, entry), 0, entry);
    if (chunk.length > CHUNK) this.chunks.splice(this.chunks.indexOf(chunk) + 1, 0, chunk.splice(CHUNK / 2));
  }

  /** Removes the entry equal to `entry` (same id and time); false when it is not here. */
  remove(entry: Listed): boolean {
    if (this.chunks.length === 0) return false;
    const index = this.chunkFor(entry);
    const chunk = this.chunks[index]!;
    const at = position(chunk, entry);
    if (chunk[at]?.id !== entry.id) return false;
    chunk.splice(at, 1);
    if (chunk.length === 0) this.chunks.splice(index, 1);
    this.size -= 1;
    return true;
  }

  /** The entries in order, chunk by chunk (read only). */
  parts(): readonly (readonly Listed[])[] {
    return this.chunks;
  }

  /** The first chunk whose last entry is not before `entry` (or the last chunk). */
  private chunkFor(entry: Listed): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.chunks[middle]!;
      if (before(chunk[chunk.length - 1]!, entry)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const NO_VOTES: FeedTotals = { count: 0, sum: 0, version: 0 };

export class FeedOrder {
  private readonly states = new Map<number, FeedPhotoState>();
  private readonly totals = new Map<number, FeedTotals>();
  /** Approved photos by vote count, each bucket in order; `counts` lists the non-empty buckets' counts ascending. */
  private readonly buckets = new Map<number, Bucket>();
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
      for (const part of this.buckets.get(count)!.parts()) {
        for (const { id } of part) {
          if (skip(id, this.states.get(id)!.ownerId)) continue;
          if (toSkip > 0) {
            toSkip -= 1;
            continue;
          }
          ids.push(id);
          if (ids.length === limit) return ids;
        }
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
      bucket = new Bucket();
      this.buckets.set(count, bucket);
      // A few hundred counts at most: a linear search is enough.
      const at = this.counts.findIndex((c) => c > count);
      this.counts.splice(at === -1 ? this.counts.length : at, 0, count);
    }
    bucket.insert(entry);
  }

  private remove(count: number, entry: Listed): void {
    const bucket = this.buckets.get(count);
    if (!bucket?.remove(entry) || bucket.size > 0) return;
    this.buckets.delete(count);
    this.counts = this.counts.filter((c) => c !== count);
  }
}

function isListed(state: FeedPhotoState): boolean {
  return !state.deleted && state.approvedAtMs !== null;
}
