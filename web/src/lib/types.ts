/** Shapes of the JSON the gateway returns, as the web app reads them. */

export interface User {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  displayName: string | null;
  customProfileImage: string | null;
  isAdmin: boolean;
  isEnabled: boolean;
  hasAcceptedTerms: boolean;
  termsAcceptedAt: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** An entry of GET /api/photos (newest approved photos): just enough to show a preview image. */
export interface PhotoPreview {
  id: number;
  filename: string;
  /** At most 480 px wide (WebP), versioned: `/api/uploads/{filename}?size=thumb&v=3`. */
  thumbnailUrl: string;
  /** At most 960 px wide (WebP), versioned; the display image until the photo has one. */
  mediumUrl: string;
  /** At most 2048 px wide (WebP), versioned. */
  displayUrl: string;
}

export type PhotoStatus = 'pending' | 'approved' | 'rejected';

/** The uploader of a gallery photo, as much of the user as the display-name and avatar rules need. */
export interface PhotoUploader {
  id: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  profileImageUrl: string | null;
  customProfileImage: string | null;
}

/** An approved photo as GET /api/gallery/{filter} lists it. */
export interface GalleryPhoto {
  id: number;
  userId: string;
  filename: string;
  description: string | null;
  status: 'approved';
  averageRating: number;
  voteCount: number;
  createdAt: string | null;
  approvedAt: string | null;
  /** Pixel size of the original (after rotation); 0 when unknown. */
  width: number;
  height: number;
  imageVersion: number;
  /** At most 480 px wide (WebP); the URL already carries `?size=thumb&v={imageVersion}`. */
  thumbnailUrl: string;
  /**
   * At most 960 px wide (WebP), for cards on dense screens; the display image until the photo has one. Which of the
   * three a card uses: web/src/components/photo/image-sources.ts.
   */
  mediumUrl: string;
  /** At most 2048 px wide (WebP). */
  displayUrl: string;
  user: PhotoUploader | null;
}

/** The answer of GET /api/gallery/{filter}. */
export interface GalleryPage {
  photos: GalleryPhoto[];
  total: number;
  totalPages: number;
}

/** The answer of GET /api/stats/gallery: the whole community's numbers for the stats strip. */
export interface GalleryStats {
  photoCount: number;
  totalVotes: number;
  ratedFourOrHigher: number;
  distinctUploaders: number;
}

/** The answer of GET /api/photos/{id}/vote: the caller's rating of that photo, if any. */
export interface MyVote {
  rating: number | null;
}

/** The answer of POST /api/photos/{id}/vote: the caller's rating and the photo's new totals. */
export interface VoteResult {
  rating: number;
  averageRating: number;
  voteCount: number;
}

export interface ContactMessageInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The gallery filters, as the gateway names them in GET /api/gallery/{filter}. */
export type GalleryFilterId =
  | 'top-rated'
  | 'need-your-vote'
  | 'new-today'
  | 'new-this-week'
  | 'new-this-month'
  | 'all-snaps';

/** A black box hiding part of a photo; every value is a percentage (0–100) of the image's size. */
export interface PrivacyBar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The answer of POST /api/photos. */
export interface UploadedPhoto {
  id: number;
  filename: string;
}

/** The answer of GET and POST /api/photos/{id}/privacy-bars. */
export interface PrivacyBarsResponse {
  bars: PrivacyBar[];
}

/** An entry of GET /api/user/photos: one of the signed-in user's own photos, at any status. */
export interface UserPhoto {
  id: number;
  filename: string;
  originalName: string;
  description: string | null;
  status: PhotoStatus;
  rejectionReason: string | null;
  privacyBars: PrivacyBar[];
  averageRating: number;
  voteCount: number;
  createdAt: string;
  approvedAt: string | null;
  width: number;
  height: number;
  imageVersion: number;
  /** Served by the gateway, e.g. `/api/uploads/{filename}?size=thumb&v=3`; sizes as on GalleryPhoto. */
  thumbnailUrl: string;
  mediumUrl: string;
  displayUrl: string;
  originalUrl: string;
}

export interface PhotoUpdateInput {
  description: string;
}

/** The answer of GET /api/google-drive/auth-url. */
export interface GoogleDriveAuthUrl {
  authUrl: string;
}

/** The answer of POST /api/google-drive/exchange-token. */
export interface GoogleDriveRefreshToken {
  refreshToken: string;
}

/** The answer of POST /api/profile/avatar. */
export interface AvatarUploadResult {
  user: User;
  /** Not shown (SPEC §7). */
  facesDetected?: number;
}

/** One of the member's approved photos with votes (the dashboard's top-rated and lowest-rated cards). */
export interface RatedPhoto {
  id: number;
  filename: string;
  description: string | null;
  averageRating: number;
  voteCount: number;
}

/** The answer of GET /api/user/stats (SPEC §3 User stats); definitions in docs/stats.md. */
export interface UserStats {
  totalUploads: number;
  approvedUploads: number;
  pendingUploads: number;
  rejectedUploads: number;
  /** Uploads since Monday 00:00 UTC. */
  uploadsThisWeek: number;
  /** All votes on the approved photos: their ratings' sum over their count; 0 without votes. */
  averageRating: number;
  /** The same over the last 5 approved photos; 0 when they have no votes (recentVoteCount 0). */
  recentAverageRating: number;
  recentVoteCount: number;
  totalVotes: number;
  /** Null without an approved photo. */
  rankByUploads: number | null;
  /** Null with fewer than 3 votes received in total (SPEC §9). */
  rankByAverageRating: number | null;
  totalActiveUsers: number;
  highestRatedPhoto: RatedPhoto | null;
  lowestRatedPhoto: RatedPhoto | null;
  /** Votes received on the approved photos per rating, 1 star first: five counts summing to totalVotes. */
  ratingDistribution: number[];
}

/** The admin's photo lists (SPEC §7 Admin), named as the gateway names them. */
export type AdminPhotoList = 'pending' | 'approved-today' | 'rejected-today' | 'all';

/** One entry of the moderation audit log about a photo. */
export interface AdminAuditEntry {
  id: string;
  /** approve | reject | delete */
  action: string;
  actorId: string;
  reason: string | null;
  createdAt: string | null;
}

/** What the server noticed about a pending repeat upload; nothing is decided from it. */
export interface ReviewMarks {
  /** An earlier rejected photo whose picture looks the same (perceptual hash within 6 bits). */
  similarRejected: {
    photoId: number;
    rejectionReason: string;
    /** Differing bits of 64: 0 is the same picture. */
    distance: number;
    sameUploader: boolean;
    rejectedAt: string | null;
  } | null;
  /** The uploader's own earlier photo with exactly the same file. */
  duplicateOf: { photoId: number; status: PhotoStatus } | null;
}

/** A photo as the admin's review list shows it. */
export interface AdminPhoto extends UserPhoto {
  userId: string;
  mimeType: string;
  approvedBy: string | null;
  user: PhotoUploader | null;
  reviewMarks: ReviewMarks | null;
  auditLog: AdminAuditEntry[];
}

/** The answer of GET /api/admin/photos/{list}. */
export interface AdminPhotoPage {
  photos: AdminPhoto[];
  total: number;
  totalPages: number;
}

/** SPEC §3 Admin stats; "today" is the UTC day. */
export interface AdminStats {
  pendingReviews: number;
  approvedToday: number;
  rejectedToday: number;
  totalPhotos: number;
}

/** The body of PATCH /api/admin/photos/{id}/status, with the photo's id. */
export type ReviewDecision = { id: number; status: 'approved' } | { id: number; status: 'rejected'; rejectionReason: string };

export type CleanupKind = 'orphaned' | 'rejected';

/** The answer of POST /api/admin/cleanup/{kind}. */
export interface CleanupResult {
  message: string;
  removed: number;
  failed: number;
}

/** A user as GET /api/admin/users lists them (SPEC §3; `avatar` already follows the avatar rule). */
export interface AdminUser {
  id: string;
  displayName: string | null;
  email: string | null;
  /** The uploaded avatar (/uploads/…) or the provider's picture; null when only the initial is left. */
  avatar: string | null;
  firstName: string | null;
  lastName: string | null;
  isEnabled: boolean;
  isAdmin: boolean;
  createdAt: string | null;
}

/** The answer of GET /api/admin/users. */
export interface AdminUserPage {
  users: AdminUser[];
  total: number;
  totalPages: number;
}

/** The body of PATCH /api/admin/users/{id}: any subset of the four (SPEC §7 Admin). */
export interface AdminUserEdit {
  displayName?: string;
  email?: string;
  isEnabled?: boolean;
  isAdmin?: boolean;
}

/** SPEC §4: a contact form moves freely between these. */
export type ContactFormStatus = 'new' | 'in_progress' | 'resolved';
/** The support screen's filters: one status, or all of them. */
export type ContactFormFilter = ContactFormStatus | 'all';

/** A contact form as GET /api/admin/contact-forms lists it. */
export interface ContactFormItem {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactFormStatus;
  createdAt: string | null;
  updatedAt: string | null;
}

/** How many forms are at each status, and in all, whatever the filter. */
export type ContactFormCounts = Record<ContactFormStatus, number> & { total: number };

/** The answer of GET /api/admin/contact-forms. */
export interface ContactFormList {
  items: ContactFormItem[];
  counts: ContactFormCounts;
  /** Forms matching the filter. */
  total: number;
  page: number;
  totalPages: number;
}
