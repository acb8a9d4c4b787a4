/**
 * The photos each member has rated, loaded from the photo service the first time the member asks for their feed and
 * kept from vote events after that. A member's set only grows (a vote, once cast, stays theirs to see, voided or not),
 * so a vote heard while the set is loading is simply added to what the load answers. Members who have not asked for
 * a while are forgotten (least recently used first), and a set is loaded again after `maxAgeMs` so that a missed event
 * cannot leave one wrong for long.
 */
export interface MemberRatingsOptions {
  load: (userId: string) => Promise<Iterable<number>>;
  maxMembers?: number;
  maxAgeMs?: number;
  now?: () => number;
}

interface Rated {
  ids: Set<number>;
  loadedAt: number;
}

export class MemberRatings {
  private readonly members = new Map<string, Rated>();
  /** Loads under way, with the votes heard meanwhile. */
  private readonly loading = new Map<string, { promise: Promise<Set<number>>; heard: Set<number> }>();
  private readonly maxMembers: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(private readonly options: MemberRatingsOptions) {
    this.maxMembers = options.maxMembers ?? 20_000;
    this.maxAgeMs = options.maxAgeMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The member's rated photos: kept, or loaded (one load at a time per member). */
  async of(userId: string): Promise<ReadonlySet<number>> {
    const kept = this.members.get(userId);
    if (kept && this.now() - kept.loadedAt < this.maxAgeMs) {
      // Used now: the last to be forgotten.
      this.members.delete(userId);
      this.members.set(userId, kept);
      return kept.ids;
    }
    const pending = this.loading.get(userId);
    if (pending) return pending.promise;
    const heard = new Set<number>();
    const promise = this.options.load(userId).then(
      (ids) => {
        this.loading.delete(userId);
        const set = new Set(ids);
        for (const id of heard) set.add(id);
        this.members.delete(userId);
        this.members.set(userId, { ids: set, loadedAt: this.now() });
        if (this.members.size > this.maxMembers) this.members.delete(this.members.keys().next().value!);
        return set;
      },
      (error: unknown) => {
        this.loading.delete(userId);
        throw error;
      },
    );
    this.loading.set(userId, { promise, heard });
    return promise;
  }

  /** A vote by the member (heard on the bus, or cast through this replica). */
  rated(userId: string, photoId: number): void {
    this.members.get(userId)?.ids.add(photoId);
    this.loading.get(userId)?.heard.add(photoId);
  }

  /** The member's account is gone. */
  forget(userId: string): void {
    this.members.delete(userId);
  }
}
