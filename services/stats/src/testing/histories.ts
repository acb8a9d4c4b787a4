import type { Envelope } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { CommunityFigures } from '../stats.repository.js';
import { cast, deleted, edited, reviewed, uploaded, userDeleted, type StateOf } from './events.js';

/** A number in [0, 1). */
export type Random = () => number;

/** One photo's events in the order the producers wrote them, and what it finally is. */
export interface PhotoHistory {
  photoId: number;
  ownerId: string;
  events: Envelope[];
  final: { status: PhotoStatus; deleted: boolean; voteCount: number; ratingSum: number; reviewedAt: Date | null };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const upTo = (random: Random, n: number) => Math.floor(random() * (n + 1));

/**
 * Random lives of photos as the photo and vote services would tell them: an upload, edits, maybe a review decision,
 * votes (new and changed) while approved, maybe a deletion, with versions as the producers number them.
 */
export function randomHistories(random: Random, options: { photos: number; owners: number; firstPhotoId: number }): PhotoHistory[] {
  const owners = Array.from({ length: options.owners }, (_, i) => `owner-${i}`);
  return Array.from({ length: options.photos }, (_, i) => {
    const photoId = options.firstPhotoId + i;
    const ownerId = pick(random, owners);
    const events: Envelope[] = [];
    let version = 1;
    let status = PhotoStatus.PHOTO_STATUS_PENDING;
    let reviewedAt: Date | null = null;
    const state = (): StateOf => ({ photoId, ownerId, status, version, description: `v${version}` });
    events.push(uploaded({ photoId, ownerId }));
    for (let e = upTo(random, 2); e > 0; e--) {
      version++;
      events.push(edited(state()));
    }
    if (random() < 0.8) {
      version++;
      status = random() < 0.65 ? PhotoStatus.PHOTO_STATUS_APPROVED : PhotoStatus.PHOTO_STATUS_REJECTED;
      reviewedAt = new Date(Date.UTC(2030, 0, 1 + upTo(random, 3), upTo(random, 23)));
      events.push(reviewed(state(), reviewedAt));
    }
    let voteCount = 0;
    let ratingSum = 0;
    if (status === PhotoStatus.PHOTO_STATUS_APPROVED) {
      // Voters who like the photo more or less, some changing their minds.
      const ratings = new Map<string, number>();
      const taste = random() < 0.5 ? [4, 5] : [1, 2, 3, 4, 5];
      for (let v = upTo(random, 8), totalsVersion = 1; v > 0; v--, totalsVersion++) {
        const voter = `voter-${upTo(random, 5)}`;
        const rating = pick(random, taste);
        const previous = ratings.get(voter);
        ratings.set(voter, rating);
        voteCount += previous === undefined ? 1 : 0;
        ratingSum += rating - (previous ?? 0);
        events.push(cast(photoId, { voteCount, ratingSum, version: totalsVersion }, { userId: voter, rating }));
      }
      for (let e = upTo(random, 1); e > 0; e--) {
        version++;
        events.push(edited(state()));
      }
    }
    const isDeleted = random() < 0.2;
    if (isDeleted) {
      version++;
      events.push(deleted(state()));
    }
    return { photoId, ownerId, events, final: { status, deleted: isDeleted, voteCount, ratingSum, reviewedAt } };
  });
}

/**
 * Every event of the histories in a random order (any photo's events may overtake each other), some delivered again
 * later (a redelivery: the same id), and a few account deletions among them.
 */
export function shuffledDeliveries(random: Random, histories: PhotoHistory[], options: { repeatShare: number }): Envelope[] {
  const events = histories.flatMap((h) => h.events);
  const repeats = events.filter(() => random() < options.repeatShare);
  const accounts = [...new Set(histories.map((h) => h.ownerId))].filter(() => random() < 0.2).map(userDeleted);
  const all = [...events, ...repeats, ...accounts];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/** The figures the final states call for, counted here in TypeScript, independently of the SQL. */
export function truthOf(histories: PhotoHistory[]): { figures: CommunityFigures } {
  const live = histories.filter((h) => !h.final.deleted);
  const approved = live.filter((h) => h.final.status === PhotoStatus.PHOTO_STATUS_APPROVED);
  return {
    figures: {
      photos: live.length,
      pendingPhotos: live.filter((h) => h.final.status === PhotoStatus.PHOTO_STATUS_PENDING).length,
      approvedPhotos: approved.length,
      votesOnApproved: approved.reduce((sum, h) => sum + h.final.voteCount, 0),
      ratedFourOrHigher: approved.filter((h) => h.final.voteCount > 0 && h.final.ratingSum / h.final.voteCount >= 4).length,
      distinctUploaders: new Set(approved.map((h) => h.ownerId)).size,
    },
  };
}
