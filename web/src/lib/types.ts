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

/** An entry of GET /api/photos: just enough to show a preview image. */
export interface PhotoPreview {
  id: number;
  filename: string;
}

export type PhotoStatus = 'pending' | 'approved' | 'rejected';

export interface PhotoUploader {
  id?: string;
  firstName: string | null;
  lastName: string | null;
  displayName?: string | null;
}

export interface GalleryPhoto {
  id: number;
  userId: string;
  filename: string;
  description: string | null;
  status: PhotoStatus;
  averageRating?: number | null;
  voteCount?: number | null;
  user?: PhotoUploader | null;
  createdAt: string | null;
}

export interface GalleryPage {
  photos: GalleryPhoto[];
  total: number;
  totalPages: number;
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
