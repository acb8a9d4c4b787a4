/**
 * Every limit and message the product's layers share: the spec's (§5 validation, §9 business constants) and the
 * product's own. The gateway's routes, the services' validators and the web app's forms import them from here, so a
 * rule is written once; `rules.test.ts` fails when one appears as a literal anywhere else.
 */

const MB = 1024 * 1024;

/** Spec §5 and §9: one photo file of at most 10 MB. */
export const UPLOAD = {
  maxBytes: 10 * MB,
  maxFiles: 1,
  /** The types spec §5 accepts, with their extensions (browsers often give HEIC files no MIME type). */
  types: {
    'image/jpeg': ['.jpeg', '.jpg'],
    'image/png': ['.png'],
    'image/heic': ['.heic'],
    'image/heif': ['.heif'],
    'image/webp': ['.webp'],
  },
  /** Every refusal of the file says this, whatever was wrong with it. */
  refused: 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted',
  termsRequired: 'You must agree to the terms of service',
} as const;

/** Spec §5: a photo's description, optional at upload, required when edited. */
export const DESCRIPTION = {
  maxLength: 500,
  required: 'Description is required',
  tooLong: 'Description must be 500 characters or less',
} as const;

/** A photo's alt text: optional, what the photo shows for people who cannot see it; the description stands in without one. */
export const ALT_TEXT = {
  maxLength: 1000,
  tooLong: 'Alt text must be 1000 characters or less',
  duplicate: 'Only one alt text is allowed',
} as const;

/** Spec §5: an admin's reason for rejecting a photo (shown to its owner). */
export const REJECTION_REASON = {
  maxLength: 500,
  required: 'Please provide a reason for rejection.',
  tooLong: 'Rejection reason must be 500 characters or less',
} as const;

/** Spec §5: a member's display name. */
export const DISPLAY_NAME = {
  maxLength: 50,
  required: 'Display name is required',
  tooLong: 'Display name must be 50 characters or less',
} as const;

/** An email address, in the contact form and an admin's user edit; 254 characters is the longest an address can be. */
export const EMAIL = {
  maxLength: 254,
  required: 'Email is required',
  invalid: 'Please enter a valid email address',
} as const;

/** Spec §5: the contact form. */
export const CONTACT = {
  name: { maxLength: 100, required: 'Name is required', tooLong: 'Name must be 100 characters or less' },
  subject: { maxLength: 200, required: 'Subject is required', tooLong: 'Subject must be 200 characters or less' },
  message: { maxLength: 2000, required: 'Message is required', tooLong: 'Message must be 2000 characters or less' },
  statuses: ['new', 'in_progress', 'resolved'],
  statusInvalid: 'Status must be new, in_progress or resolved',
  filterInvalid: 'status must be new, in_progress, resolved or all',
  idInvalid: 'Invalid contact form id',
  /** Spec §9: the support screen opens on new messages. */
  defaultFilter: 'new',
  /** The admin's support list, per page. */
  pageSize: 50,
} as const;

/** Spec §5: accepting the terms. */
export const TERMS = {
  required: 'You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue',
} as const;

/** Spec §5: the storage setup page's authorization code. */
export const DRIVE_AUTHORIZATION = {
  codeRequired: 'Please enter the authorization code',
} as const;

/** Spec §9: the star scale. */
export const RATING = {
  min: 1,
  max: 5,
  invalid: 'Rating must be a whole number from 1 to 5',
} as const;

/** Privacy bars (spec §3, §5): rectangles in percent of the image, burned into every image others see. */
export const PRIVACY_BARS = {
  maxPerPhoto: 20,
  tooMany: 'At most 20 privacy bars per photo',
  invalid: 'Each privacy bar needs x, y, width and height between 0 and 100, and must lie inside the photo',
  notAList: 'bars must be a list of privacy bars',
  /** Spec §5, §9: a bar drawn by dragging is kept only if wider and taller than this, in percent. */
  minKeptPercent: 2,
  /** Spec §5: the bar being drawn shows only above this, in percent. */
  minPreviewPercent: 1,
  /** Spec §5: the smallest a bar is drawn on screen, in CSS pixels. */
  minOnScreenPx: 10,
} as const;

/** Spec §7 Profile: the avatar picker's types (spec §5) and the product's size limit. */
export const AVATAR = {
  maxBytes: 5 * MB,
  types: { 'image/jpeg': ['.jpeg', '.jpg'], 'image/png': ['.png'] },
  refused: 'Only JPG, JPEG or PNG images up to 5MB are accepted',
  tooLarge: 'The avatar must be 5MB or less',
} as const;

/** Face suggestions for privacy bars: a scaled-down copy of the photo about to be uploaded, never stored. */
export const FACE_SUGGESTIONS = {
  maxBytes: 3 * MB,
  types: ['image/jpeg', 'image/png', 'image/webp'],
  refused: 'Only JPG, PNG or WebP images up to 3MB can be checked for faces',
} as const;

/** Page and page-size parameters of every list. */
export const PAGES = {
  maxPage: 100_000,
  pageInvalid: 'page must be a whole number from 1 to 100000',
  /** Each list's largest and default page size. */
  limits: {
    gallery: { max: 50, default: 9 },
    previews: { max: 100, default: 20 },
    adminPhotos: { max: 100, default: 20 },
    adminUsers: { max: 100, default: 20 },
    contactForms: { max: 100, default: CONTACT.pageSize },
    reports: { max: 50, default: 20 },
    raters: { max: 100, default: 25 },
    raterVotes: { max: 100, default: 50 },
    notifications: { max: 50, default: 20 },
  },
  limitInvalid: (max: number) => `limit must be a whole number from 1 to ${max}`,
} as const;

/** The admin's user search. */
export const USER_SEARCH = {
  maxLength: 100,
  tooLong: 'Search must be 100 characters or less',
} as const;

/** Spec §2, §9: the gallery. */
export const GALLERY = {
  filters: ['top-rated', 'need-your-vote', 'new-today', 'new-this-week', 'new-this-month', 'all-snaps'],
  defaultFilter: 'top-rated',
  pageSize: 9,
  /** Pagination shows at most this many page buttons. */
  pageButtons: 5,
  /** The hero fetches this many photos and shows a few of them at random. */
  heroFetch: 20,
  heroShown: 4,
  unknownFilter: 'Unknown gallery filter',
} as const;

/** The admin's photo lists (spec §7 Admin) and cleanups. */
export const REVIEW = {
  lists: ['pending', 'all', 'approved-today', 'rejected-today'],
  statuses: ['approved', 'rejected'],
  statusInvalid: 'status must be "approved" or "rejected"',
  unknownList: 'Unknown photo list',
  cleanups: ['orphaned', 'rejected'],
  unknownCleanup: 'Unknown cleanup',
} as const;

/** Spec §9: the dashboard's rankings. */
export const DASHBOARD = {
  /** A member is ranked by average rating only with at least this many votes. */
  rankMinVotes: 3,
  /** The recent average rating covers this many of the member's newest approved photos. */
  recentPhotos: 5,
} as const;

/** The answers every route may give, as `{ message }`. */
export const ERRORS = {
  unauthorized: 'Unauthorized',
  disabled: 'Your account has been disabled. Please contact support if you think this is a mistake.',
  termsRequired: TERMS.required,
  crossSite: 'Cross-site request refused',
  notFound: 'Not found',
  adminOnly: 'Administrator access required',
  forbidden: 'You do not have permission to do that',
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable. Please try again.',
  tooMany: 'Too many requests. Please slow down and try again shortly.',
  badRequest: 'Bad request',
  malformedMultipart: 'The upload could not be read: it was cut short or is not a multipart form. Please try again.',
  invalidPhotoId: 'Invalid photo id',
} as const;

/**
 * Refusals the services give that a person can act on. Of a service's 401 or 403 the gateway shows only these texts
 * and ERRORS' own; any other reason (a call's proof, which component may call what) stays in the logs.
 */
export const REFUSALS = {
  signInRequired: 'Authentication required',
  needYourVote: 'Sign in to see the photos that need your vote',
  ownPhotosOnly: 'You can only change your own photos',
  ownPhotoVote: 'You cannot vote on your own photo',
  ownPhotoReport: 'You cannot report your own photo',
  ownAdminRights: 'You cannot disable or remove admin rights from your own account',
  adminUndeletable: 'Admin accounts cannot be deleted',
} as const;

/** Member reports of approved photos (beyond the spec: moderation that scales). */
export const REPORTS = {
  /** The categories, as stored and as the API names them, with the label members and admins see. */
  categories: ['not_a_crack', 'personal_data', 'offensive', 'spam', 'copyright', 'other'] as const,
  labels: {
    not_a_crack: 'Not a crack',
    personal_data: 'Faces or personal data visible',
    offensive: 'Offensive',
    spam: 'Spam or duplicate',
    copyright: 'Copyright',
    other: 'Other',
  },
  noteMaxLength: 500,
  /** Distinct members whose open reports take a photo out of the gallery and back to review (REPORTS_TO_HOLD). */
  defaultHoldThreshold: 3,
  orders: ['newest', 'most-reported'] as const,
  decisions: ['dismiss', 'remove'] as const,
  categoryInvalid: 'Please choose what is wrong with this photo.',
  noteTooLong: 'The note must be 500 characters or less',
  notFound: 'No such approved photo.',
  alreadyReported: 'You have already reported this photo. An admin will look at it.',
  decisionInvalid: 'Decision must be dismiss or remove',
  removalReasonRequired: 'Please provide a reason for removal.',
  nothingToDecide: 'This photo has no open reports.',
  unknownOrder: 'Order must be newest or most-reported',
} as const;

/** Fix and resubmit: the owner's one answer to a rejection (beyond the spec: moderation that is fair). */
export const RESUBMIT = {
  windowDays: 30,
  noteMaxLength: 500,
  noteTooLong: 'The note must be 500 characters or less',
  notRejected: 'Only a rejected photo can be resubmitted.',
  final: 'This photo was resubmitted once already; its rejection is final.',
  expired: 'The 30 days to resubmit this photo have passed.',
} as const;

/**
 * Upload allowances: how many photos a member may have waiting for review at once (beyond the spec: a fair queue).
 * Every photo is still reviewed; the allowance only bounds each member's share of the queue.
 */
export const ALLOWANCE = {
  defaults: { pendingLimit: 5, trustedAfter: 10, trustedPendingLimit: 15 },
  /** Approved photos earn the larger allowance only with no rejection or removal in this many days. */
  cleanRecordDays: 90,
  /** Each rejection or removal lowers the allowance by one for this many days (never below one). */
  penaltyDays: 30,
  maxSetting: 1000,
  settingInvalid: 'Each allowance must be a whole number from 1 to 1000, and the larger one at least the basic one',
  base: (limit: number) => `Members may have ${limit} photos waiting for review at once.`,
  trusted: (approved: number, limit: number) =>
    `With ${approved} or more approved photos and no rejection or removal in 90 days, you may have ${limit} waiting at once.`,
  towardTrusted: (needed: number, limit: number) =>
    needed === 0
      ? `No rejection or removal for 90 days raises it to ${limit}.`
      : `${needed} more approved ${needed === 1 ? 'photo' : 'photos'} and no rejection or removal for 90 days raise it to ${limit}.`,
  penalty: (count: number) =>
    `${count} ${count === 1 ? 'rejection or removal' : 'rejections or removals'} in the last 30 days ${count === 1 ? 'lowers' : 'lower'} it by ${count}.`,
  full: (pending: number, limit: number) =>
    `You have ${pending} ${pending === 1 ? 'photo' : 'photos'} waiting for review, your allowance is ${limit}. Please wait until an admin has reviewed ${pending === 1 ? 'it' : 'some of them'}.`,
} as const;

/**
 * The review desk (beyond the spec): one item at a time under a claim, so two admins never review the same photo, with
 * keyboard shortcuts, reason templates and a short undo. Decisions elsewhere (the pending list, bulk approval, reports)
 * respect the claims too.
 */
export const DESK = {
  /** A claim lasts this long unless the admin's desk renews it; an abandoned one then frees the photo. */
  claimSeconds: 120,
  /** The desk renews its claim this often while the admin is on the item. */
  renewEverySeconds: 30,
  /** A desk decision can be taken back for this long before it is sent. */
  undoSeconds: 10,
  /** Photos a "Review next" may leave out (those skipped or decided at this desk, still being sent). */
  maxExcluded: 100,
  kinds: ['new', 'resubmission', 'reported'] as const,
  kindLabels: { new: 'New upload', resubmission: 'Resubmission', reported: 'Reported' },
  claimedByOther: 'Another admin is reviewing this photo.',
  claimLost: 'Your claim on this photo has ended. Please take the next one.',
  tooManyExcluded: 'At most 100 photos can be left out',
  bulkMax: 50,
  bulkEmpty: 'Select at least one photo to approve.',
  bulkTooMany: 'At most 50 photos can be approved at once.',
} as const;

/** Decisions taken back: an approved photo removed, a rejected or removed one approved after all, always with a reason. */
export const REVERSAL = {
  decisions: ['approve', 'remove'] as const,
  decisionInvalid: 'Decision must be approve or remove',
  reasonRequired: 'Please give a reason for changing this decision.',
  notApproved: 'Only an approved photo can be removed.',
  notRejected: 'Only a rejected or removed photo can be approved again.',
} as const;

/** Reasons admins write once and pick at the desk (a number key) or in the reject dialog. */
export const REASON_TEMPLATES = {
  max: 20,
  labelMaxLength: 60,
  labelRequired: 'Please give the template a short name.',
  labelTooLong: 'The name must be 60 characters or less',
  limitReached: 'There can be at most 20 reason templates. Please delete one first.',
  notFound: 'No such reason template.',
} as const;

/** The reviewer figures admins see. */
export const REVIEW_FIGURES = {
  defaultDays: 14,
  maxDays: 90,
  daysInvalid: 'Days must be a whole number from 1 to 90',
  /** A reporter is listed once this many of their reports are decided, and at least this share was dismissed. */
  minDecidedReports: 3,
  mostlyDismissedShare: 0.5,
  /** Reporters listed at most. */
  maxReporters: 20,
} as const;

/** Spec §4, §9: how the web app behaves over time. */
export const WEB = {
  /** An image that fails to load is tried again this many times, after 1 s, 2 s, 3 s. */
  imageRetries: 3,
  imageRetryDelayMs: 1000,
  /** The protected image view's canvas quality. */
  canvasQuality: 0.9,
  unauthorizedRedirectMs: 500,
  afterTermsRedirectMs: 100,
  /** Admin stats and the pending list are polled every 5 s, contact forms every 30 s. */
  adminPollMs: 5000,
  contactFormsPollMs: 30_000,
  /** While the live notification stream is down, the unread count is asked for this often (never while it is up). */
  unreadPollMs: 30_000,
  /** While a copy of a member's data is being made, its progress is asked for this often. */
  dataExportPollMs: 2000,
  /** The support badge shows 99+ above this. */
  badgeMax: 99,
  toastLimit: 1,
  toastDurationMs: 5000,
  tooltipDelayMs: 700,
  tooltipSkipDelayMs: 300,
  anchorOffsetPx: 80,
} as const;

/**
 * Honest votes: the admin's Raters page, and votes set aside. A voided vote stays its member's but no longer counts in
 * any total; it can be restored. The suspicion score (docs/administration.md, Honest votes) weighs, from 0 to 100:
 * disagreement with the other voters, votes in bursts, long runs of one rating, and no spread at all, scaled down for
 * members with few votes.
 */
export const RATERS = {
  sorts: ['score', 'votes', 'mean', 'spread', 'deviation', 'run', 'bursts'] as const,
  sortInvalid: 'sort must be one of score, votes, mean, spread, deviation, run, bursts',
  /** Votes cast less than this many seconds after the voter's previous one count as a burst. */
  burstSeconds: 3,
  /** A photo's consensus needs this many other counting votes; fewer, and the vote is left out of the deviation. */
  consensusMinVotes: 2,
  /** Below this many votes a member's score is scaled down (a handful of votes says little). */
  confidentVotes: 10,
  /** The score's weights; they add up to 100. */
  weights: { deviation: 40, bursts: 25, run: 20, uniform: 15 },
  /** Votes voided or restored by photo in one request, at most (leave the list out for all of the member's votes). */
  maxPhotos: 500,
  photosInvalid: 'photoIds must be a list of at most 500 photo ids',
  reasonRequired: 'Please give a reason.',
  reasonMaxLength: 500,
  reasonTooLong: 'Reason must be 500 characters or less',
  unknownMember: 'This member has no votes.',
  /** The answer when a member changes a vote an admin has set aside. */
  voided: 'Your vote on this photo was set aside by an admin and can no longer be changed.',
} as const;

/**
 * Members' notifications: what happened to their photos, votes, reports and support messages, listed and pushed live
 * (server-sent events through the gateway). The texts are written here once, for the app and for email alike.
 */
export const NOTIFICATIONS = {
  kinds: ['photo_approved', 'photo_rejected', 'photo_removed', 'photo_reinstated', 'first_vote', 'vote_milestone', 'high_rating', 'report_outcome', 'support_resolved'] as const,
  /** Vote counts that are worth a notice, besides the first vote. */
  voteMilestones: [10, 50, 100] as const,
  /** A photo averaging this or more with at least `minVotes` votes gets one notice. */
  highRating: { average: 4.5, minVotes: 10 },
  notFound: 'Notification not found',
  idInvalid: 'Notification id must be a whole number',
  /** Server-sent events on the stream, and how often it says it is alive. */
  streamEvents: { notification: 'notification', unread: 'unread', admin: 'admin' },
  adminTopics: ['photos', 'support', 'stats'] as const,
  heartbeatSeconds: 20,
  texts: {
    photo_approved: (photo: string) => ({ title: 'Your photo was approved', body: `${photo} is now in the gallery.` }),
    photo_rejected: (photo: string, reason: string) => ({ title: 'Your photo was not approved', body: `${photo}: ${reason}` }),
    photo_removed: (photo: string, reason: string) => ({ title: 'Your photo was removed from the gallery', body: `${photo}: ${reason}` }),
    photo_reinstated: (photo: string) => ({ title: 'Your photo is back in the gallery', body: `${photo} was approved again.` }),
    first_vote: (photo: string) => ({ title: 'Your photo got its first vote', body: `Someone rated ${photo}.` }),
    vote_milestone: (photo: string, votes: number) => ({ title: `Your photo reached ${votes} votes`, body: `${photo} has been rated ${votes} times.` }),
    high_rating: (photo: string, average = 0, votes = 0) => ({
      title: 'Your photo is among the best rated',
      body: `${photo} averages ${average.toFixed(1)} stars from ${votes} votes.`,
    }),
    report_outcome: (removed: boolean) => ({
      title: 'Your report was reviewed',
      body: removed ? 'The photo you reported was removed from the gallery. Thank you.' : 'An admin looked at the photo you reported and kept it in the gallery.',
    }),
    support_resolved: (subject: string) => ({ title: 'Your message was answered', body: `"${subject}" is marked resolved.` }),
  },
  /** How a notice names a photo: its description, quoted and shortened, else its number. */
  photoName: (description: string | null | undefined, id: number) => {
    const text = typeof description === 'string' ? description.trim() : '';
    if (!text) return `Photo #${id}`;
    return `"${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`;
  },
} as const;

/**
 * "Your data": a zip of everything the product holds about a member (profile, photos and their files, votes, reports,
 * contact messages), made in the background by the gateway and kept for a day (docs/data-export.md).
 */
export const DATA_EXPORT = {
  /** A finished copy can be downloaded for this long. */
  keepHours: 24,
  /** Copies a member may ask for within `windowHours`. */
  maxPerWindow: 3,
  windowHours: 24,
  /** The largest zip kept, in bytes (just under 2 GB). */
  maxBytes: 2_000_000_000,
  statuses: ['queued', 'running', 'ready', 'failed', 'expired'] as const,
  inProgress: 'A copy of your data is already being prepared. Please wait until it is ready.',
  tooMany: 'You can ask for a copy of your data 3 times a day. Please download the one you have, or try again tomorrow.',
  notReady: 'There is no copy of your data ready to download. Please ask for a new one.',
  tooLarge: 'Your data is larger than 2 GB, more than one download can hold. Please contact us and we will send it another way.',
  failed: 'Your copy could not be made. Please try again in a few minutes.',
  accountUnavailable: 'Your copy could not be made because your account is not active.',
} as const;

/**
 * Uploads that survive a bad connection (docs/resumable-uploads.md): the bytes go by the tus 1.0 protocol to the
 * gateway, which keeps what has arrived; the finished upload becomes a photo by the same rules as POST /api/photos.
 */
export const RESUMABLE_UPLOAD = {
  /** The tus endpoint: POST creates an upload there, its Location is `<path>/<id>`. */
  path: '/api/resumable-uploads',
  tusVersion: '1.0.0',
  /** What the web app sends in one PATCH: a cut connection loses at most what was in flight. */
  chunkBytes: 2 * MB,
  /** An unfinished upload, and a finished one's record, are kept this long after it was begun (UPLOAD_RESUMABLE_HOURS). */
  keepHours: 24,
  /** Unfinished uploads one member may have at once. */
  maxUnfinished: 5,
  /** The web app waits this long between tries after a failed chunk, then keeps the last. */
  retryDelaysMs: [0, 1000, 3000, 5000, 10_000, 20_000, 30_000] as const,
  notFound: 'This upload is not known here. It may have expired; please upload the photo again.',
  expired: 'This upload has expired; please upload the photo again.',
  incomplete: 'This upload is not complete yet. Send the rest of the file first.',
  offsetConflict: 'Upload-Offset is not the offset stored; ask where the upload stands (HEAD), then send from there.',
  tooManyUnfinished: 'You have 5 unfinished uploads. Finish or cancel one of them before starting another.',
  lengthRequired: 'The upload must say its length (Upload-Length).',
} as const;
