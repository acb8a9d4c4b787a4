import { NOTIFICATIONS } from '@snapcracks/http-contract';
import type { DecodedEvent } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { Outbox, SqlClient } from '@snapcracks/kit';
import { addNotices, notifiedPhotos, type NewNotice, type NotificationStore } from './notification.store.js';

/**
 * The events that make notices or keep what notices need (photo owners, members' addresses). Votes, the busiest, have
 * a batch consumer of their own (VOTE_NOTICE_EVENTS).
 */
export const NOTICE_EVENTS = [
  'photo.photo.uploaded',
  'photo.photo.updated',
  'photo.photo.status_changed',
  'photo.photo.deleted',
  'moderation.reports.decided',
  'support.contact_form.status_changed',
  'auth.user.updated',
  'auth.user.deleted',
] as const;
export type NoticeEvent = DecodedEvent<(typeof NOTICE_EVENTS)[number]>;

const { texts, photoName, voteMilestones, highRating } = NOTIFICATIONS;

/** The notice a photo's status change makes for its owner: approved, not approved, removed, back in the gallery. */
function statusNotice(event: DecodedEvent<'photo.photo.status_changed'>): NewNotice | null {
  const { photo, previousStatus, rejectionReason, actionId } = event.payload;
  if (!photo?.userId) return null;
  const name = photoName(photo.description, photo.photoId);
  const reason = rejectionReason?.trim() || 'No reason was given.';
  const base = { userId: photo.userId, photoId: photo.photoId, dedupeKey: `status:${photo.photoId}:${actionId || event.id}` };
  if (photo.status === PhotoStatus.PHOTO_STATUS_APPROVED) {
    return previousStatus === PhotoStatus.PHOTO_STATUS_REJECTED
      ? { ...base, kind: 'photo_reinstated', ...texts.photo_reinstated(name) }
      : previousStatus === PhotoStatus.PHOTO_STATUS_PENDING
        ? { ...base, kind: 'photo_approved', ...texts.photo_approved(name) }
        : null;
  }
  if (photo.status !== PhotoStatus.PHOTO_STATUS_REJECTED) return null;
  return previousStatus === PhotoStatus.PHOTO_STATUS_APPROVED || photo.approvedAt
    ? { ...base, kind: 'photo_removed', ...texts.photo_removed(name, reason) }
    : { ...base, kind: 'photo_rejected', ...texts.photo_rejected(name, reason) };
}

export const VOTE_NOTICE_EVENTS = ['vote.vote.cast'] as const;
type VoteEvent = DecodedEvent<'vote.vote.cast'>;

/**
 * Whether a vote may make a notice: a member's own new vote (not a changed one, nor an admin voiding or restoring
 * votes) whose count reaches a milestone exactly, or that leaves the photo averaging 4.5 or more with 10 votes. Nearly
 * every vote is none of these, and costs the batch nothing more.
 */
export function mayNotify({ payload: { userId, voteCount, ratingSum, previousRating } }: VoteEvent): boolean {
  if (!userId || voteCount === undefined || ratingSum === undefined || previousRating !== undefined) return false;
  return voteCount === 1 || (voteMilestones as readonly number[]).includes(voteCount) || (voteCount >= highRating.minVotes && ratingSum / voteCount >= highRating.average);
}

/** The notices one vote makes for the photo's owner (each at most once per photo, by its key). */
export function voteNotices(event: VoteEvent, photo: { ownerId: string; description: string | null }): NewNotice[] {
  const { photoId, userId, voteCount = 0, ratingSum = 0 } = event.payload;
  if (photo.ownerId === userId) return [];
  const name = photoName(photo.description, photoId);
  const base = { userId: photo.ownerId, photoId };
  const notices: NewNotice[] = [];
  if (voteCount === 1) notices.push({ ...base, kind: 'first_vote', dedupeKey: `votes:${photoId}:1`, ...texts.first_vote(name) });
  if ((voteMilestones as readonly number[]).includes(voteCount)) {
    notices.push({ ...base, kind: 'vote_milestone', dedupeKey: `votes:${photoId}:${voteCount}`, ...texts.vote_milestone(name, voteCount) });
  }
  const average = ratingSum / voteCount;
  if (voteCount >= highRating.minVotes && average >= highRating.average) {
    notices.push({ ...base, kind: 'high_rating', dedupeKey: `rating:${photoId}`, ...texts.high_rating(name, average, voteCount) });
  }
  return notices;
}

/**
 * The vote notices of a batch, in the batch consumer's transaction: only the votes that may notify read their photos'
 * owners (one query), and their notices are made as any others. A vote on a photo not heard of yet makes none.
 */
export async function applyVoteNoticeEvents(events: VoteEvent[], tx: SqlClient, outbox: Pick<Outbox, 'enqueue'>): Promise<void> {
  const candidates = events.filter(mayNotify);
  if (candidates.length === 0) return;
  const photos = await notifiedPhotos(tx, [...new Set(candidates.map((e) => e.payload.photoId))]);
  const notices = candidates.flatMap((event) => {
    const photo = photos.get(event.payload.photoId);
    return photo ? voteNotices(event, photo) : [];
  });
  await addNotices(tx, outbox, notices);
}

/**
 * Turns an event into notices (and keeps the photo owners and addresses they need), in the consumer's transaction.
 * Handled twice, an event makes nothing more: every notice has a key of what made it.
 */
export async function applyNoticeEvent(event: NoticeEvent, store: NotificationStore): Promise<void> {
  switch (event.type) {
    case 'photo.photo.uploaded':
    case 'photo.photo.updated':
    case 'photo.photo.status_changed': {
      const { photo } = event.payload;
      if (photo) await store.savePhoto({ photoId: photo.photoId, ownerId: photo.userId, description: photo.description ?? null, version: photo.version });
      if (event.type === 'photo.photo.status_changed') {
        const notice = statusNotice(event as DecodedEvent<'photo.photo.status_changed'>);
        if (notice) await store.add([notice]);
      }
      return;
    }
    case 'photo.photo.deleted': {
      const { photo } = event.payload as DecodedEvent<'photo.photo.deleted'>['payload'];
      if (photo) await store.forgetPhoto(photo.photoId);
      return;
    }
    case 'moderation.reports.decided': {
      const { photoId, outcome, reporterIds, decidedAt } = event.payload as DecodedEvent<'moderation.reports.decided'>['payload'];
      const removed = outcome === 'removed';
      const at = decidedAt?.getTime() ?? event.id;
      await store.add(
        [...new Set(reporterIds)].map((userId) => ({ userId, photoId, kind: 'report_outcome' as const, dedupeKey: `report:${photoId}:${at}`, ...texts.report_outcome(removed) })),
      );
      return;
    }
    case 'support.contact_form.status_changed': {
      const { contactFormId, status, userId } = event.payload as DecodedEvent<'support.contact_form.status_changed'>['payload'];
      if (status !== 'resolved' || !userId) return;
      const subject = await store.contactSubject(contactFormId);
      await store.add([{ userId, photoId: null, kind: 'support_resolved', dedupeKey: `support:${contactFormId}:${event.id}`, ...texts.support_resolved(subject ?? 'Your message') }]);
      return;
    }
    case 'auth.user.updated': {
      const { user, email, updatedAt } = event.payload as DecodedEvent<'auth.user.updated'>['payload'];
      if (!user?.id || !updatedAt) return;
      const name = user.displayName?.trim() || [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || null;
      await store.saveRecipient({ userId: user.id, email: email ?? null, name, updatedAt });
      return;
    }
    case 'auth.user.deleted': {
      const { userId } = event.payload as DecodedEvent<'auth.user.deleted'>['payload'];
      if (userId) await store.forgetMember(userId);
      return;
    }
  }
}
