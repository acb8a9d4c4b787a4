import { z } from 'zod';
import { PAGES, RATERS } from '../rules.js';
import { pageQuery, timestamp } from '../fields.js';

/** The Raters page: sorted by one figure, the suspicious first by default. */
export const raterQuery = pageQuery(PAGES.limits.raters).extend({
  sort: z.enum(RATERS.sorts, { error: RATERS.sortInvalid }).default('score').meta({ description: 'Highest first; the score by default.' }),
});

export const rater = z
  .object({
    userId: z.string(),
    name: z.string().nullable().meta({ description: 'Null when the account is gone.' }),
    email: z.string().nullable(),
    isEnabled: z.boolean().nullable().meta({ description: 'Null when the account is gone.' }),
    votes: z.number().int().meta({ description: 'Every vote of theirs, counting or not.' }),
    voided: z.number().int().meta({ description: 'Of those, set aside by an admin.' }),
    suspended: z.number().int().meta({ description: 'Of those, not counting while their account is disabled.' }),
    mean: z.number(),
    spread: z.number().meta({ description: 'The standard deviation of their ratings.' }),
    deviation: z.number().nullable().meta({ description: 'The mean distance of their ratings from the other voters\' mean on the same photos; null when no photo has enough other votes.' }),
    longestRun: z.number().int().meta({ description: 'The most votes in a row, in the order cast, with one rating.' }),
    bursts: z.number().int().meta({ description: `Votes cast less than ${RATERS.burstSeconds} s after their previous one.` }),
    score: z.number().meta({ description: 'Suspicion from 0 to 100 (docs/administration.md, Honest votes).' }),
    lastVoteAt: timestamp,
  })
  .meta({ id: 'Rater' });

export const raterPage = z
  .object({
    raters: z.array(rater),
    total: z.number().int(),
    totalPages: z.number().int(),
    computedAt: timestamp.meta({ description: 'When the figures were computed over every vote (a member\'s own again after a void or restoration); null before the first time.' }),
  })
  .meta({ id: 'RaterPage' });

export const raterParams = z.object({ userId: z.string().min(1).max(200).meta({ description: 'The voter\'s user id.' }) });

export const raterVoteQuery = pageQuery(PAGES.limits.raterVotes);

export const raterVote = z
  .object({
    photoId: z.number().int(),
    rating: z.number().int(),
    castAt: timestamp,
    consensus: z.number().nullable().meta({ description: 'The other counting votes\' mean on the photo; null with fewer than two.' }),
    voidedAt: timestamp,
    voidedBy: z.string().nullable(),
    voidReason: z.string().nullable(),
    suspended: z.boolean().meta({ description: 'Not counting while the voter\'s account is disabled.' }),
  })
  .meta({ id: 'RaterVote' });

export const raterAction = z
  .object({
    id: z.string(),
    action: z.enum(['void', 'restore']),
    adminId: z.string(),
    adminName: z.string().nullable(),
    reason: z.string(),
    votes: z.number().int().meta({ description: 'Votes it changed.' }),
    allVotes: z.boolean().meta({ description: 'It applied to all of the member\'s votes, not chosen photos.' }),
    at: timestamp,
  })
  .meta({ id: 'RaterAction' });

export const raterVotePage = z
  .object({
    votes: z.array(raterVote),
    total: z.number().int(),
    totalPages: z.number().int(),
    actions: z.array(raterAction).meta({ description: 'What admins did to this member\'s votes, newest first (at most 50).' }),
  })
  .meta({ id: 'RaterVotePage' });

const photoIds = z
  .array(z.number({ error: RATERS.photosInvalid }).int(RATERS.photosInvalid).min(1, RATERS.photosInvalid), { error: RATERS.photosInvalid })
  .min(1, RATERS.photosInvalid)
  .max(RATERS.maxPhotos, RATERS.photosInvalid);

export const voteVoidBody = z
  .object({
    photoIds: photoIds.optional().meta({ description: 'The photos whose votes change; left out, all of the member\'s votes.' }),
    reason: z.string({ error: RATERS.reasonRequired }).trim().min(1, RATERS.reasonRequired).max(RATERS.reasonMaxLength, RATERS.reasonTooLong),
  })
  .meta({ id: 'VoteVoidRequest' });

export const voteVoidResult = z
  .object({ changed: z.number().int().meta({ description: 'Votes voided (or restored) by this request; those already so are not counted.' }) })
  .meta({ id: 'VoteVoidResult' });
