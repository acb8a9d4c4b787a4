import type { Envelope } from '@snapcracks/kit';
import type { RecountedVote } from '../counting.store.js';
import type { CastResult, EventsOf, NewVote, RemovedVote, Totals, VotablePhoto, VotablePhotoStore, VoteRepository, VoterStore, VoterVote } from '../vote.repository.js';

/** The VoteRepository in memory, for the service's unit tests; the contract tests hold it to PrismaVoteRepository's behaviour. */
export class InMemoryVoteRepository implements VoteRepository {
  readonly photos = new Map<number, VotablePhoto>();
  readonly votes = new Map<string, number>();
  readonly ratings = new Map<number, Totals>();
  readonly events: Envelope[] = [];
  /** Votes set aside (voided or suspended), by `photoId|userId`: the in-memory cast leaves them as they are. */
  readonly setAside = new Set<string>();
  /** When each vote was first cast and last changed, by `photoId|userId`. */
  readonly times = new Map<string, { castAt: Date; changedAt: Date }>();
  /** The clock votes are stamped with. */
  now: () => Date = () => new Date();

  readonly votablePhotos: VotablePhotoStore = {
    saveIfNewer: async (photo) => {
      const stored = this.photos.get(photo.photoId);
      if (stored && stored.version >= photo.version) return false;
      this.photos.set(photo.photoId, { ...photo });
      return true;
    },
    forgetVotes: async (photoId) => {
      for (const key of this.votes.keys()) if (key.startsWith(`${photoId}|`)) this.votes.delete(key);
      this.ratings.delete(photoId);
    },
  };

  /** Each voter's enabled flag and when it was set, as setEnabled keeps them. */
  readonly voterStates = new Map<string, { enabled: boolean; updatedAt: Date }>();

  readonly voters: VoterStore = {
    setEnabled: async (userId, enabled, updatedAt, suspend, eventOf) => {
      const stored = this.voterStates.get(userId);
      if (stored && stored.updatedAt >= updatedAt) return [];
      this.voterStates.set(userId, { enabled, updatedAt });
      if (!enabled && !suspend) return [];
      const changed: RecountedVote[] = [];
      for (const [key, rating] of [...this.votes].sort(([a], [b]) => Number(a.split('|')[0]) - Number(b.split('|')[0]))) {
        const [photo, voter] = key.split('|');
        if (voter !== userId || this.setAside.has(key) === !enabled) continue;
        const before = this.ratings.get(Number(photo))!;
        const move = enabled ? 1 : -1;
        const totals: Totals = { voteCount: before.voteCount + move, ratingSum: before.ratingSum + move * rating, version: before.version + 1 };
        this.ratings.set(Number(photo), totals);
        if (enabled) this.setAside.delete(key);
        else this.setAside.add(key);
        const vote = { photoId: Number(photo), rating, counted: !enabled, counts: enabled, totals };
        this.events.push(eventOf(vote));
        changed.push(vote);
      }
      return changed;
    },

    forgetVoter: async (userId, eventOf) => {
      const removed: RemovedVote[] = [];
      const mine = [...this.votes]
        .map(([key, rating]) => ({ key, photoId: Number(key.slice(0, key.indexOf('|'))), voter: key.slice(key.indexOf('|') + 1), rating }))
        .filter((vote) => vote.voter === userId);
      for (const { key, photoId, rating } of mine.sort((a, b) => a.photoId - b.photoId)) {
        const before = this.ratings.get(photoId);
        this.votes.delete(key);
        if (!before) continue;
        const totals: Totals = { voteCount: before.voteCount - 1, ratingSum: before.ratingSum - rating, version: before.version + 1 };
        const entry: RemovedVote = { photoId, userId, rating, totals };
        this.events.push(eventOf(entry));
        this.ratings.set(photoId, totals);
        removed.push({ ...entry, totals: { ...totals } });
      }
      return removed;
    },
  };

  async isSetAside(photoId: number, userId: string): Promise<boolean> {
    return this.setAside.has(`${photoId}|${userId}`);
  }

  async findVotable(photoId: number): Promise<VotablePhoto | null> {
    const photo = this.photos.get(photoId);
    return photo ? { ...photo } : null;
  }

  async cast(vote: NewVote, eventsOf: EventsOf): Promise<CastResult | null> {
    const photo = this.photos.get(vote.photoId);
    if (!photo || !photo.approved || photo.deleted || photo.ownerId === vote.userId) return null;
    const key = `${vote.photoId}|${vote.userId}`;
    if (this.setAside.has(key)) return null;
    const previousRating = this.votes.get(key) ?? null;
    const before = this.ratings.get(vote.photoId) ?? { voteCount: 0, ratingSum: 0, version: 0 };
    const totals: Totals = {
      voteCount: before.voteCount + (previousRating === null ? 1 : 0),
      ratingSum: before.ratingSum + vote.rating - (previousRating ?? 0),
      version: before.version + 1,
    };
    const cast: CastResult = { ...vote, previousRating, totals };
    const events = eventsOf(cast);
    this.votes.set(key, vote.rating);
    const at = this.now();
    this.times.set(key, { castAt: this.times.get(key)?.castAt ?? at, changedAt: at });
    this.ratings.set(vote.photoId, totals);
    this.events.push(...events);
    return { ...cast, totals: { ...totals } };
  }

  async findRating(photoId: number, userId: string): Promise<number | null> {
    return this.votes.get(`${photoId}|${userId}`) ?? null;
  }

  // The in-memory store has no voids (the honest-votes service sets them in SQL): a vote set aside here is suspended.
  async listByVoter(userId: string): Promise<VoterVote[]> {
    const mine: VoterVote[] = [];
    for (const [key, rating] of this.votes) {
      const [photo, voter] = key.split('|');
      if (voter !== userId) continue;
      const { castAt, changedAt } = this.times.get(key) ?? { castAt: new Date(0), changedAt: new Date(0) };
      mine.push({ photoId: Number(photo), rating, castAt, changedAt, voided: false, suspended: this.setAside.has(key) });
    }
    return mine.sort((a, b) => b.castAt.getTime() - a.castAt.getTime() || b.photoId - a.photoId);
  }

  async totals(photoId: number): Promise<Totals | null> {
    const totals = this.ratings.get(photoId);
    return totals ? { ...totals } : null;
  }
}
