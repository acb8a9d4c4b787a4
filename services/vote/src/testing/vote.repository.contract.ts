import { beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import type { CastResult, EventsOf, RemovedEventOf, RemovedVote, Totals, VotablePhotoStore, VoteRepository, VoterStore } from '../vote.repository.js';

export interface ContractSubject {
  /** The repository under test, over empty tables. */
  repository(): VoteRepository;
  /** The votable-photos projection of the same store. */
  votablePhotos(): VotablePhotoStore;
  /** The voters' side of the same store, as the consumer of auth's user events writes it. */
  voters(): VoterStore;
  /** Types of the events committed so far. */
  eventTypes(): Promise<string[]>;
}

/**
 * What every VoteRepository promises, run against PostgreSQL (integration) and against the in-memory fake (unit),
 * so the fake the service's unit tests rely on cannot drift from the real thing.
 */
export function describeVoteRepositoryContract(name: string, subject: ContractSubject): void {
  describe(`${name} keeps the VoteRepository contract`, () => {
    let repo: VoteRepository;
    let photos: VotablePhotoStore;
    let voters: VoterStore;
    let seen: CastResult[];
    let removedSeen: RemovedVote[];
    const removedEventOf: RemovedEventOf = (removed) => {
      removedSeen.push(removed);
      return makeEvent('vote.vote.cast', VoteCast, { photoId: removed.photoId, userId: '', rating: 0, voteCount: 0, ratingSum: 0, version: 0 }, { source: 'test' });
    };
    const eventOf: EventsOf = (cast) => {
      seen.push(cast);
      return [makeEvent('vote.vote.cast', VoteCast, { photoId: cast.photoId, userId: cast.userId, rating: cast.rating, voteCount: 0, ratingSum: 0, version: 0 }, { source: 'test' })];
    };

    beforeEach(() => {
      repo = subject.repository();
      photos = subject.votablePhotos();
      voters = subject.voters();
      seen = [];
      removedSeen = [];
    });

    const approved = (photoId: number, ownerId = 'owner', version = 2) => photos.saveIfNewer({ photoId, ownerId, approved: true, deleted: false, version });

    it('keeps the newest state of a photo, whatever order states arrive in', async () => {
      expect(await photos.saveIfNewer({ photoId: 7, ownerId: 'owner', approved: true, deleted: false, version: 3 })).toBe(true);
      expect(await photos.saveIfNewer({ photoId: 7, ownerId: 'owner', approved: false, deleted: false, version: 1 })).toBe(false);
      expect(await photos.saveIfNewer({ photoId: 7, ownerId: 'owner', approved: false, deleted: false, version: 3 })).toBe(false);
      expect(await repo.findVotable(7)).toEqual({ photoId: 7, ownerId: 'owner', approved: true, deleted: false, version: 3 });
      expect(await photos.saveIfNewer({ photoId: 7, ownerId: 'owner', approved: false, deleted: true, version: 4 })).toBe(true);
      expect(await repo.findVotable(7)).toMatchObject({ approved: false, deleted: true, version: 4 });
      expect(await repo.findVotable(8)).toBeNull();
    });

    it('stores a first vote, then a changed one, moving the totals by the difference, each with its event', async () => {
      await approved(1);
      const first = await repo.cast({ photoId: 1, userId: 'a', rating: 4 }, eventOf);
      expect(first).toEqual({ photoId: 1, userId: 'a', rating: 4, previousRating: null, totals: { voteCount: 1, ratingSum: 4, version: 1 } });
      const second = await repo.cast({ photoId: 1, userId: 'b', rating: 2 }, eventOf);
      expect(second?.totals).toEqual({ voteCount: 2, ratingSum: 6, version: 2 });
      const changed = await repo.cast({ photoId: 1, userId: 'a', rating: 1 }, eventOf);
      expect(changed).toEqual({ photoId: 1, userId: 'a', rating: 1, previousRating: 4, totals: { voteCount: 2, ratingSum: 3, version: 3 } });
      expect(seen).toEqual([first, second, changed]);
      expect(await subject.eventTypes()).toEqual(['vote.vote.cast', 'vote.vote.cast', 'vote.vote.cast']);
      expect(await repo.findRating(1, 'a')).toBe(1);
      expect(await repo.findRating(1, 'b')).toBe(2);
      expect(await repo.findRating(1, 'c')).toBeNull();
      expect(await repo.totals(1)).toEqual({ voteCount: 2, ratingSum: 3, version: 3 });
    });

    it('casts votes sent at once as if one after another: each answer holds the totals its own vote left', async () => {
      await approved(1);
      await approved(2);
      await repo.cast({ photoId: 1, userId: 'a', rating: 2 }, eventOf);
      const sent = [
        { photoId: 1, userId: 'a', rating: 5 }, // a change
        { photoId: 1, userId: 'b', rating: 3 },
        { photoId: 2, userId: 'a', rating: 4 },
        { photoId: 1, userId: 'owner', rating: 5 }, // own photo: refused
        { photoId: 9, userId: 'a', rating: 1 }, // unknown: refused
        { photoId: 1, userId: 'c', rating: 1 },
        { photoId: 2, userId: 'b', rating: 2 },
        { photoId: 1, userId: 'a', rating: 4 }, // the same vote changed again at the same moment
      ];
      const results = await Promise.all(sent.map((vote) => repo.cast(vote, eventOf)));
      expect(results[3]).toBeNull();
      expect(results[4]).toBeNull();
      for (const [photoId, before] of [[1, { voteCount: 1, ratingSum: 2, version: 1 }], [2, { voteCount: 0, ratingSum: 0, version: 0 }]] as const) {
        // In version order, each vote's totals are the previous ones moved by exactly that vote.
        const chain = results.filter((r): r is CastResult => r?.photoId === photoId).sort((x, y) => x.totals.version - y.totals.version);
        let totals: Totals = before;
        for (const result of chain) {
          totals = {
            voteCount: totals.voteCount + (result.previousRating === null ? 1 : 0),
            ratingSum: totals.ratingSum + result.rating - (result.previousRating ?? 0),
            version: totals.version + 1,
          };
          expect(result.totals).toEqual(totals);
        }
        expect(await repo.totals(photoId)).toEqual(totals);
      }
      // The changes of a's vote on photo 1 form a chain too: each replaced the rating the one before left.
      const changes = results.filter((r) => r?.photoId === 1 && r.userId === 'a').sort((x, y) => x!.totals.version - y!.totals.version);
      expect(changes.map((c) => c!.previousRating)).toEqual([2, changes[0]!.rating]);
      expect(await repo.findRating(1, 'a')).toBe(changes[1]!.rating);
      expect(await repo.totals(1)).toMatchObject({ voteCount: 3, ratingSum: changes[1]!.rating + 3 + 1 });
      expect(await repo.totals(2)).toMatchObject({ voteCount: 2, ratingSum: 6 });
      // One event per stored vote, each built from that vote's own result.
      expect(seen.slice(1).sort((x, y) => x.photoId - y.photoId || x.totals.version - y.totals.version)).toEqual(
        results.filter(Boolean).sort((x, y) => x!.photoId - y!.photoId || x!.totals.version - y!.totals.version),
      );
      expect(await subject.eventTypes()).toHaveLength(7);
    });

    it('changes nothing for an unknown, unapproved, deleted or own photo', async () => {
      await photos.saveIfNewer({ photoId: 2, ownerId: 'owner', approved: false, deleted: false, version: 1 });
      await photos.saveIfNewer({ photoId: 3, ownerId: 'owner', approved: false, deleted: true, version: 4 });
      await approved(4);
      for (const [photoId, userId] of [[1, 'a'], [2, 'a'], [3, 'a'], [4, 'owner']] as const) {
        expect(await repo.cast({ photoId, userId, rating: 5 }, eventOf)).toBeNull();
        expect(await repo.totals(photoId)).toBeNull();
      }
      expect(seen).toEqual([]);
      expect(await subject.eventTypes()).toEqual([]);
    });

    it('forgets a voter: their votes go and each photo’s totals drop by exactly their vote, with a new version and an event each', async () => {
      await approved(1);
      await approved(2);
      await approved(3);
      await repo.cast({ photoId: 1, userId: 'gone', rating: 5 }, eventOf);
      await repo.cast({ photoId: 1, userId: 'stays', rating: 2 }, eventOf);
      await repo.cast({ photoId: 2, userId: 'gone', rating: 1 }, eventOf);
      await repo.cast({ photoId: 2, userId: 'gone', rating: 4 }, eventOf); // changed: 4 is what goes
      await repo.cast({ photoId: 3, userId: 'stays', rating: 3 }, eventOf);
      const removed = await voters.forgetVoter('gone', removedEventOf);
      expect(removed).toEqual([
        { photoId: 1, userId: 'gone', rating: 5, totals: { voteCount: 1, ratingSum: 2, version: 3 } },
        { photoId: 2, userId: 'gone', rating: 4, totals: { voteCount: 0, ratingSum: 0, version: 3 } },
      ]);
      expect(removedSeen).toEqual(removed);
      expect(await repo.findRating(1, 'gone')).toBeNull();
      expect(await repo.findRating(2, 'gone')).toBeNull();
      expect(await repo.findRating(1, 'stays')).toBe(2);
      expect(await repo.totals(1)).toEqual({ voteCount: 1, ratingSum: 2, version: 3 });
      expect(await repo.totals(2)).toEqual({ voteCount: 0, ratingSum: 0, version: 3 });
      expect(await repo.totals(3)).toEqual({ voteCount: 1, ratingSum: 3, version: 1 });
      expect(await subject.eventTypes()).toHaveLength(7);
      // Again (a redelivery, or a voter who never voted): nothing more to remove, no event.
      expect(await voters.forgetVoter('gone', removedEventOf)).toEqual([]);
      expect(await voters.forgetVoter('never-voted', removedEventOf)).toEqual([]);
      expect(await subject.eventTypes()).toHaveLength(7);
      // Votes go on from the new version.
      expect((await repo.cast({ photoId: 2, userId: 'stays', rating: 5 }, eventOf))?.totals).toEqual({ voteCount: 1, ratingSum: 5, version: 4 });
    });

    it("lists a voter's own votes, newest first, each saying whether it counts", async () => {
      await approved(1);
      await approved(2);
      await repo.cast({ photoId: 1, userId: 'lister', rating: 4 }, eventOf);
      await repo.cast({ photoId: 2, userId: 'lister', rating: 2 }, eventOf);
      await repo.cast({ photoId: 1, userId: 'b', rating: 5 }, eventOf);
      await repo.cast({ photoId: 1, userId: 'lister', rating: 3 }, eventOf);
      const mine = await repo.listByVoter('lister');
      expect(mine.map(({ photoId, rating, voided, suspended }) => ({ photoId, rating, voided, suspended }))).toEqual([
        { photoId: 2, rating: 2, voided: false, suspended: false },
        { photoId: 1, rating: 3, voided: false, suspended: false },
      ]);
      expect(mine[1]!.changedAt.getTime()).toBeGreaterThanOrEqual(mine[1]!.castAt.getTime());
      // A disabled account's votes stay its own, suspended (a voter no other test uses: the state is kept).
      await voters.setEnabled('lister', false, new Date(), true, () => makeEvent('vote.vote.cast', VoteCast, { photoId: 0, userId: '', rating: 0, voteCount: 0, ratingSum: 0, version: 0 }, { source: 'test' }));
      expect((await repo.listByVoter('lister')).map((vote) => vote.suspended)).toEqual([true, true]);
      expect(await repo.listByVoter('nobody')).toEqual([]);
    });

    it('forgets a photo’s votes and totals, and no other photo’s', async () => {
      await approved(1);
      await approved(2);
      await repo.cast({ photoId: 1, userId: 'a', rating: 5 }, eventOf);
      await repo.cast({ photoId: 2, userId: 'a', rating: 3 }, eventOf);
      await photos.forgetVotes(1);
      expect(await repo.findRating(1, 'a')).toBeNull();
      expect(await repo.totals(1)).toBeNull();
      expect(await repo.findRating(2, 'a')).toBe(3);
      expect(await repo.totals(2)).toEqual({ voteCount: 1, ratingSum: 3, version: 1 });
    });
  });
}
