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
