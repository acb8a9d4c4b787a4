import { NOTIFICATIONS } from '@snapcracks/http-contract';
import type { DecodedEvent } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { VoteMilestone } from '@snapcracks/proto/events/v1';
import type { Outbox, SqlClient } from '@snapcracks/kit';
import { addNotices, notifiedPhotos, type NewNotice, type NotificationStore } from './notification.store.js';

/**
 * The events that make notices or keep what notices need (photo owners, members' addresses). Votes' milestones have
 * a batch consumer of their own (VOTE_NOTICE_EVENTS): votes are the busiest events, and a batch reads its photos' owners
 * at once.
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

const { texts, photoName } = NOTIFICATIONS;

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

export const VOTE_NOTICE_EVENTS = ['vote.photo.milestones_reached'] as const;
type MilestonesEvent = DecodedEvent<'vote.photo.milestones_reached'>;

/** The notices a vote's milestones make for the photo's owner (each at most once per photo, by its key). */
export function milestoneNotices(event: MilestonesEvent, photo: { ownerId: string; description: string | null }): NewNotice[] {
  const { photoId, voterId, milestones, voteCount = 0, ratingSum = 0 } = event.payload;
  if (photo.ownerId === voterId) return [];
  const name = photoName(photo.description, photoId);
  const base = { userId: photo.ownerId, photoId };
  return milestones.flatMap((milestone): NewNotice[] => {
    switch (milestone) {
      case VoteMilestone.VOTE_MILESTONE_FIRST_VOTE:
        return [{ ...base, kind: 'first_vote', dedupeKey: `votes:${photoId}:1`, ...texts.first_vote(name) }];
      case VoteMilestone.VOTE_MILESTONE_VOTE_COUNT:
        return [{ ...base, kind: 'vote_milestone', dedupeKey: `votes:${photoId}:${voteCount}`, ...texts.vote_milestone(name, voteCount) }];
      case VoteMilestone.VOTE_MILESTONE_HIGH_RATING:
        return voteCount > 0 ? [{ ...base, kind: 'high_rating', dedupeKey: `rating:${photoId}`, ...texts.high_rating(name, ratingSum / voteCount, voteCount) }] : [];
      default:
        return [];
    }
  });
}

/**
 * The notices of a batch of votes' milestones, in the batch consumer's transaction: their photos' owners in one
 * query, and their notices made as any others. A milestone of a photo not heard of yet makes none.
 */
export async function applyMilestoneEvents(events: MilestonesEvent[], tx: SqlClient, outbox: Pick<Outbox, 'enqueue'>): Promise<void> {
  const photos = await notifiedPhotos(tx, [...new Set(events.map((e) => e.payload.photoId))]);
  const notices = events.flatMap((event) => {
    const photo = photos.get(event.payload.photoId);
    return photo ? milestoneNotices(event, photo) : [];
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
