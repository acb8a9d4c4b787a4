import type { Envelope } from '@snapcracks/kit';
import type { Random } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { CommunityFigures } from '../stats.repository.js';
import type { UserStats } from '../stats.service.js';
import { NO_STARS, type Stars } from '../stats.projection.js';
import { cast, deleted, edited, reviewed, uploaded, userDeleted, type StateOf } from './events.js';

export { seededRandom, type Random } from '@snapcracks/kit/testing';

/** One photo's events in the order the producers wrote them, and what it finally is. */
export interface PhotoHistory {
  photoId: number;
  ownerId: string;
  events: Envelope[];
  final: {
    status: PhotoStatus;
    deleted: boolean;
    voteCount: number;
    ratingSum: number;
    /** The votes per rating, 1 star first. */
    stars: Stars;
    reviewedAt: Date | null;
    createdAt: Date;
    approvedAt: Date | null;
    filename: string;
    description: string;
  };
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
    let approvedAt: Date | undefined;
    // Uploads over three weeks around Monday 2030-01-07 (UTC), some right at a week's edges.
    const createdAt = random() < 0.1 ? new Date(Date.UTC(2030, 0, 7) - 1 + upTo(random, 2)) : new Date(Date.UTC(2029, 11, 31) + Math.floor(random() * 21 * 86_400_000));
    const state = (): StateOf => ({ photoId, ownerId, status, version, description: `v${version}`, createdAt, approvedAt });
    events.push(uploaded({ photoId, ownerId, createdAt }));
    for (let e = upTo(random, 2); e > 0; e--) {
      version++;
      events.push(edited(state()));
    }
    if (random() < 0.8) {
      version++;
      status = random() < 0.65 ? PhotoStatus.PHOTO_STATUS_APPROVED : PhotoStatus.PHOTO_STATUS_REJECTED;
      reviewedAt = new Date(Date.UTC(2030, 0, 1 + upTo(random, 3), upTo(random, 23)));
      if (status === PhotoStatus.PHOTO_STATUS_APPROVED) approvedAt = reviewedAt;
      events.push(reviewed(state(), reviewedAt));
    }
    let voteCount = 0;
    let ratingSum = 0;
    const stars: Stars = [...NO_STARS];
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
        stars[rating - 1]! += 1;
        if (previous !== undefined) stars[previous - 1]! -= 1;
        events.push(cast(photoId, { voteCount, ratingSum, version: totalsVersion }, { userId: voter, rating, previousRating: previous }));
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
    const final = { status, deleted: isDeleted, voteCount, ratingSum, stars, reviewedAt, createdAt, approvedAt: approvedAt ?? null, filename: `${photoId}.webp`, description: `v${version}` };
    return { photoId, ownerId, events, final };
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
export function truthOf(histories: PhotoHistory[]): { figures: CommunityFigures; owners: Map<string, { approvedPhotos: number; votes: number; ratingSum: number }> } {
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
    owners: approved.reduce((owners, h) => {
      const o = owners.get(h.ownerId) ?? { approvedPhotos: 0, votes: 0, ratingSum: 0 };
      return owners.set(h.ownerId, { approvedPhotos: o.approvedPhotos + 1, votes: o.votes + h.final.voteCount, ratingSum: o.ratingSum + h.final.ratingSum });
    }, new Map<string, { approvedPhotos: number; votes: number; ratingSum: number }>()),
  };
}

/** What a member's dashboard should say, counted here in TypeScript from the final states, independently of the SQL. */
export function memberTruthOf(histories: PhotoHistory[], ownerId: string, options: { weekFrom: Date; weekTo: Date; deletedOwners: Set<string> }): UserStats {
  const live = histories.filter((h) => !h.final.deleted);
  const isApproved = (h: PhotoHistory) => h.final.status === PhotoStatus.PHOTO_STATUS_APPROVED;
  const mine = live.filter((h) => h.ownerId === ownerId);
  const approved = mine.filter(isApproved);
  const sum = (items: PhotoHistory[], of: (h: PhotoHistory) => number) => items.reduce((total, h) => total + of(h), 0);
  const average = (items: PhotoHistory[]) => {
    const votes = sum(items, (h) => h.final.voteCount);
    return votes > 0 ? sum(items, (h) => h.final.ratingSum) / votes : 0;
  };
  const newerApproval = (a: PhotoHistory, b: PhotoHistory) => (b.final.approvedAt?.getTime() ?? 0) - (a.final.approvedAt?.getTime() ?? 0) || b.photoId - a.photoId;
  const recent = [...approved].sort(newerApproval).slice(0, 5);
  const rated = approved.filter((h) => h.final.voteCount > 0);
  const avg = (h: PhotoHistory) => h.final.ratingSum / h.final.voteCount;
  const highest = [...rated].sort((a, b) => avg(b) - avg(a) || b.final.voteCount - a.final.voteCount || newerApproval(a, b))[0];
  const lowest = [...rated].sort((a, b) => avg(a) - avg(b) || b.final.voteCount - a.final.voteCount || newerApproval(a, b))[0];
  const asRated = (h: PhotoHistory | undefined) =>
    h ? { id: h.photoId, filename: h.final.filename, description: h.final.description, averageRating: avg(h), voteCount: h.final.voteCount } : null;

  // Every active member's figures: an approved photo, account not deleted.
  const members = new Map<string, { approved: number; votes: number; ratingSum: number }>();
  for (const h of live.filter(isApproved)) {
    if (options.deletedOwners.has(h.ownerId)) continue;
    const m = members.get(h.ownerId) ?? { approved: 0, votes: 0, ratingSum: 0 };
    members.set(h.ownerId, { approved: m.approved + 1, votes: m.votes + h.final.voteCount, ratingSum: m.ratingSum + h.final.ratingSum });
  }
  const me = members.get(ownerId);
  const ranked = [...members.values()].filter((m) => m.votes >= 3);
  return {
    totalUploads: mine.length,
    approvedUploads: approved.length,
    pendingUploads: mine.filter((h) => h.final.status === PhotoStatus.PHOTO_STATUS_PENDING).length,
    rejectedUploads: mine.filter((h) => h.final.status === PhotoStatus.PHOTO_STATUS_REJECTED).length,
    uploadsThisWeek: mine.filter((h) => h.final.createdAt >= options.weekFrom && h.final.createdAt < options.weekTo).length,
    averageRating: average(approved),
    recentAverageRating: average(recent),
    recentVoteCount: sum(recent, (h) => h.final.voteCount),
    totalVotes: sum(approved, (h) => h.final.voteCount),
    rankByUploads: me ? 1 + [...members.values()].filter((m) => m.approved > me.approved).length : null,
    rankByAverageRating: me && me.votes >= 3 ? 1 + ranked.filter((m) => m.ratingSum / m.votes > me.ratingSum / me.votes).length : null,
    totalActiveUsers: members.size,
    highestRatedPhoto: asRated(highest),
    lowestRatedPhoto: asRated(lowest),
    ratingDistribution: approved.reduce<Stars>((total, h) => total.map((n, i) => n + h.final.stars[i]!) as Stars, [...NO_STARS]),
  };
}
