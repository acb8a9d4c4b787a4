/**
 * The one typed client for the gateway's HTTP API: every path of it is written here and nowhere else.
 *
 * Every call sends the session cookie, sends JSON only when a body is given, and turns any non-ok
 * response into an ApiError whose message is `${status}: ${body text or status text}` (SPEC §8).
 */
import type {
  AdminPhotoList,
  AdminPhotoPage,
  AdminStats,
  AdminUser,
  AdminUserEdit,
  AdminUserPage,
  AvatarUploadResult,
  BulkApprovalResult,
  CleanupKind,
  CleanupResult,
  ContactFormFilter,
  ContactFormItem,
  ContactFormList,
  ContactFormStatus,
  ContactMessageInput,
  DataExport,
  DecisionReversal,
  DeskClaim,
  DeskNext,
  DeskNextRequest,
  GalleryFilterId,
  GalleryPage,
  GalleryStats,
  GoogleDriveAuthUrl,
  GoogleDriveRefreshToken,
  MyVote,
  NotificationPage,
  NotificationSettings,
  NotificationSettingsUpdate,
  PhotoPreview,
  PhotoUpdateInput,
  PrivacyBar,
  PrivacyBarsResponse,
  RaterPage,
  RaterSort,
  RaterVotePage,
  ReasonTemplate,
  ReasonTemplateInput,
  ReasonTemplateList,
  ReportDecisionInput,
  ReportDecisionResult,
  ReportedPhotoOrder,
  ReportedPhotoPage,
  ReportInput,
  ReportPage,
  ReportResult,
  ReviewDecision,
  ReviewFigures,
  UploadAllowance,
  UploadAllowanceSettings,
  UnreadNotifications,
  UploadedPhoto,
  User,
  UserPhoto,
  UserStats,
  VoteResult,
  VoteVoidInput,
  VoteVoidResult,
} from './types';
import { RESUMABLE_UPLOAD } from '@snapcracks/http-contract';
import { uploadWithProgress, type UploadProgress } from './upload';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A non-ok answer from the gateway. */
export class ApiError extends Error {
  /** The HTTP status code. */
  readonly status: number;
  /** The raw response text (may be empty). */
  readonly body: string;
  /** The response parsed as JSON, or undefined when it is not JSON. */
  readonly data: unknown;

  constructor(status: number, body: string, statusText = '') {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.data = parseJson(body);
  }

  /**
   * The `message` of a JSON error body (`{"message": "..."}`), or `fallback`. Plain text and HTML
   * error pages are never shown to users.
   */
  serverMessage(fallback: string): string {
    const data = this.data;
    if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message) {
      return data.message;
    }
    return fallback;
  }
}

/** True for the errors this client throws on a 401 answer. */
export function isUnauthorizedError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 401;
}

/** The server's `{message}` when `error` is an ApiError carrying one, else `fallback`. */
export function getServerMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.serverMessage(fallback) : fallback;
}

/** Throws the ApiError for a non-ok response. */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  throw new ApiError(response.status, await response.text(), response.statusText);
}

/** `keepalive`: the request is sent even if the page is hidden or unloaded meanwhile (a held decision, say). */
interface RequestOptions {
  keepalive?: boolean;
}

/** Sends a request and returns the raw (ok) response. */
async function apiRequest(method: HttpMethod, url: string, body?: unknown, { keepalive }: RequestOptions = {}): Promise<Response> {
  const hasBody = body !== undefined;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    ...(keepalive ? { keepalive } : {}),
    headers: hasBody ? { 'Content-Type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(response);
  return response;
}

/** Sends a request and parses the JSON answer; an empty answer (e.g. 204) becomes `undefined`. */
async function apiJson<T>(method: HttpMethod, url: string, body?: unknown, options?: RequestOptions): Promise<T> {
  const response = await apiRequest(method, url, body, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Sign-in and sign-out are browser navigations to the gateway (SPEC §7), never fetched. */
export const LOGIN_URL = '/api/login';
export const LOGOUT_URL = '/api/logout';

/**
 * The member's live notifications: server-sent events read with the browser's EventSource (same origin, so the
 * session cookie goes with it), never fetched.
 */
export const NOTIFICATION_STREAM_URL = '/api/notifications/stream';

/** Where the gateway serves uploaded files: photos, and the site icon. */
export function uploadedFileUrl(filename: string): string {
  return `/api/uploads/${encodeURIComponent(filename)}`;
}

/** The text that goes with an uploaded photo; each part optional. */
export interface PhotoUploadDetails {
  description?: string;
  /** What the photo shows, for people who cannot see it. */
  altText?: string;
}

/** The multipart body of POST /api/photos: the file as `photo`, and `description` and `altText` only when not blank. */
export function buildPhotoUploadForm(file: File, { description, altText }: PhotoUploadDetails = {}): FormData {
  const form = new FormData();
  // The text goes first, so the server knows it before the file's bytes start streaming.
  for (const [name, value] of [['description', description], ['altText', altText]] as const) {
    const trimmed = value?.trim();
    if (trimmed) form.append(name, trimmed);
  }
  form.append('photo', file, file.name);
  return form;
}

/** A page of the admin's users list; `query` is words to find in names and emails, blank for everyone. */
export interface AdminUsersSearch {
  page: number;
  limit: number;
  query: string;
}

function adminUsersUrl({ page, limit, query }: AdminUsersSearch): string {
  const params = new URLSearchParams({ page: String(page), limit: String(limit) });
  const q = query.trim();
  if (q) params.set('q', q);
  return `/api/admin/users?${params}`;
}

/** Fetches a file the gateway serves (a photo's original, by the URL its listing gave) as a Blob. */
async function fetchFile(url: string): Promise<Blob> {
  const response = await fetch(url, { credentials: 'include' });
  await throwIfNotOk(response);
  return response.blob();
}

/** Sends an image as the whole request body, with its own type, and parses the JSON answer. */
async function postImage<T>(url: string, image: Blob): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': image.type || 'image/jpeg' },
    body: image,
  });
  await throwIfNotOk(response);
  return (await response.json()) as T;
}

export const api = {
  auth: {
    /** The signed-in user; fails with 401 when signed out and 403 for a disabled account. */
    currentUser: () => apiJson<User>('GET', '/api/auth/user'),
    acceptTerms: () => apiJson<unknown>('POST', '/api/auth/accept-terms', { hasAcceptedTerms: true }),
  },
  photos: {
    /** The newest approved photos (landing previews); `limit` caps how many. */
    list: (limit?: number) =>
      apiJson<PhotoPreview[]>('GET', limit === undefined ? '/api/photos' : `/api/photos?limit=${limit}`),
    /** The caller's own rating of a photo (signed in only). */
    myVote: (id: number) => apiJson<MyVote>('GET', `/api/photos/${id}/vote`),
    /** Rates an approved photo 1–5 (403 on one's own photo, 404 when not approved). */
    vote: (id: number, rating: number) => apiJson<VoteResult>('POST', `/api/photos/${id}/vote`, { rating }),
    /**
     * Uploads one photo (multipart `photo`, optional `description` and `altText`), reporting upload progress.
     * Uses XMLHttpRequest because fetch has no upload progress events.
     */
    upload: (
      file: File,
      details: PhotoUploadDetails = {},
      onProgress?: (progress: UploadProgress) => void,
      options: { signal?: AbortSignal } = {},
    ) =>
      uploadWithProgress<UploadedPhoto>('/api/photos', buildPhotoUploadForm(file, details), {
        onProgress,
        signal: options.signal,
      }),
    /** Where a resumable upload stands: bytes stored and the whole length; null when it is gone or expired. */
    resumableUploadProgress: async (uploadId: string): Promise<{ offset: number; length: number } | null> => {
      const response = await fetch(`${RESUMABLE_UPLOAD.path}/${encodeURIComponent(uploadId)}`, {
        method: 'HEAD',
        credentials: 'include',
        headers: { 'Tus-Resumable': RESUMABLE_UPLOAD.tusVersion },
      });
      if (response.status === 404 || response.status === 410) return null;
      await throwIfNotOk(response);
      return { offset: Number(response.headers.get('upload-offset')), length: Number(response.headers.get('upload-length')) };
    },
    /** Cancels a resumable upload: the bytes sent are deleted (one already gone is fine). */
    cancelResumableUpload: async (uploadId: string): Promise<void> => {
      const response = await fetch(`${RESUMABLE_UPLOAD.path}/${encodeURIComponent(uploadId)}`, {
        method: 'DELETE',
        credentials: 'include',
        headers: { 'Tus-Resumable': RESUMABLE_UPLOAD.tusVersion },
      });
      if (response.status !== 404) await throwIfNotOk(response);
    },
    /** Makes a resumable upload whose bytes are all stored a photo (asked again, the same photo). */
    finishResumableUpload: (uploadId: string, { description, altText }: PhotoUploadDetails = {}) =>
      apiJson<UploadedPhoto>('POST', `${RESUMABLE_UPLOAD.path}/${encodeURIComponent(uploadId)}/photo`, {
        ...(description?.trim() ? { description } : {}),
        ...(altText?.trim() ? { altText } : {}),
      }),
    getPrivacyBars: (id: number) => apiJson<PrivacyBarsResponse>('GET', `/api/photos/${id}/privacy-bars`),
    setPrivacyBars: (id: number, bars: PrivacyBar[]) =>
      apiJson<PrivacyBarsResponse>('POST', `/api/photos/${id}/privacy-bars`, { bars }),
    /**
     * Bars over the faces in an image (a photo not uploaded yet has no id, so the image itself is sent). The answer
     * is the server's, unchecked: the caller parses it.
     */
    suggestFaceBars: (image: Blob) => postImage<unknown>('/api/photos/face-suggestions', image),
    /** A file by the URL a listing gave for it (an owner's unredacted original, say). */
    file: fetchFile,
    update: (id: number, input: PhotoUpdateInput) => apiJson<unknown>('PATCH', `/api/photos/${id}`, input),
    /** Deletes one of the user's own photos; the gateway answers 204. */
    remove: (id: number) => apiJson<void>('DELETE', `/api/photos/${id}`),
    /** Sends one's rejected photo back to review with a note (once, within 30 days of the rejection). */
    resubmit: (id: number, note: string) => apiJson<UserPhoto>('POST', `/api/photos/${id}/resubmission`, note ? { note } : {}),
    /** Reports someone else's approved photo (403 on one's own, 409 while one's earlier report of it is open). */
    report: (id: number, input: ReportInput) => apiJson<ReportResult>('POST', `/api/photos/${id}/reports`, input),
  },
  user: {
    photos: () => apiJson<UserPhoto[]>('GET', '/api/user/photos'),
    stats: () => apiJson<UserStats>('GET', '/api/user/stats'),
    /** How many photos the caller may have waiting for review at once, how many are, and why. */
    uploadAllowance: () => apiJson<UploadAllowance>('GET', '/api/user/upload-allowance'),
    /** The caller's reports, newest first, with their outcomes. */
    reports: (page: number, limit: number) => apiJson<ReportPage>('GET', `/api/user/reports?page=${page}&limit=${limit}`),
    /** The caller's latest copy of their data (null before the first); its `downloadUrl` is a browser download. */
    dataExport: () => apiJson<DataExport | null>('GET', '/api/user/data-export'),
    /** Asks for a new copy: 409 while one is made, 429 past the daily limit. */
    requestDataExport: () => apiJson<DataExport>('POST', '/api/user/data-export'),
    /** Deletes the caller's ready copy now; answers 204. */
    discardDataExport: () => apiJson<void>('DELETE', '/api/user/data-export'),
  },
  notifications: {
    /** One page of the caller's notifications, newest first, with how many are unread in all. */
    list: (page: number, limit: number) => apiJson<NotificationPage>('GET', `/api/notifications?page=${page}&limit=${limit}`),
    /** Marks one read; answers how many are still unread. */
    read: (id: number) => apiJson<UnreadNotifications>('POST', `/api/notifications/${id}/read`),
    /** Marks every one read. */
    readAll: () => apiJson<UnreadNotifications>('POST', '/api/notifications/read-all'),
    /** Email and push on or off, and whether the site sends email at all. */
    settings: () => apiJson<NotificationSettings>('GET', '/api/user/notification-settings'),
    /** Changes either or both preferences; answers them all. */
    updateSettings: (update: NotificationSettingsUpdate) =>
      apiJson<NotificationSettings>('PUT', '/api/user/notification-settings', update),
  },
  profile: {
    /** PUT /api/profile: the trimmed display name; answers the updated user. */
    updateDisplayName: (displayName: string) => apiJson<User>('PUT', '/api/profile', { displayName }),
    /** The file as multipart `avatar`, reporting upload progress. */
    uploadAvatar: (file: File, onProgress?: (progress: UploadProgress) => void) => {
      const form = new FormData();
      form.append('avatar', file, file.name);
      return uploadWithProgress<AvatarUploadResult>('/api/profile/avatar', form, { onProgress });
    },
  },
  gallery: {
    page: (filter: GalleryFilterId, page: number, limit: number) =>
      apiJson<GalleryPage>('GET', `/api/gallery/${filter}?page=${page}&limit=${limit}`),
    /** The community's totals for the stats strip (public). */
    stats: () => apiJson<GalleryStats>('GET', '/api/stats/gallery'),
  },
  contact: {
    send: (input: ContactMessageInput) => apiJson<unknown>('POST', '/api/contact', input),
  },
  admin: {
    stats: () => apiJson<AdminStats>('GET', '/api/admin/stats'),
    photos: (list: AdminPhotoList, page: number, limit: number) =>
      apiJson<AdminPhotoPage>('GET', `/api/admin/photos/${list}?page=${page}&limit=${limit}`),
    /**
     * Approves or rejects a pending photo, with `keepalive` so a decision sent as the page is hidden or unloaded
     * still reaches the server (components/admin/review-decisions.ts holds decisions for their Undo window).
     */
    review: ({ id, ...decision }: ReviewDecision) =>
      apiJson<UserPhoto>('PATCH', `/api/admin/photos/${id}/status`, decision, { keepalive: true }),
    /** Approves several pending photos at once; those it could not approve come back with why. */
    bulkApprove: (photoIds: number[]) => apiJson<BulkApprovalResult>('POST', '/api/admin/photos/approvals', { photoIds }),
    /** Takes back a decision: removes an approved photo, or approves a rejected (or removed) one after all. */
    reverseDecision: (id: number, reversal: DecisionReversal) => apiJson<UserPhoto>('POST', `/api/admin/photos/${id}/reversal`, reversal),
    /** "Review next": claims the photo that has waited longest for the caller's review desk (null when none is waiting). */
    deskNext: (request: DeskNextRequest) => apiJson<DeskNext>('POST', '/api/admin/desk/next', request),
    /** Keeps the desk's claim on a photo; 409 once the claim has ended. */
    renewDeskClaim: (id: number) => apiJson<DeskClaim>('POST', `/api/admin/desk/claims/${id}/renewal`),
    /** Gives up the desk's claim, with `keepalive`: the admin may be leaving the page. */
    releaseDeskClaim: (id: number) => apiJson<void>('DELETE', `/api/admin/desk/claims/${id}`, undefined, { keepalive: true }),
    reasonTemplates: () => apiJson<ReasonTemplateList>('GET', '/api/admin/reason-templates'),
    createReasonTemplate: (input: ReasonTemplateInput) => apiJson<ReasonTemplate>('POST', '/api/admin/reason-templates', input),
    updateReasonTemplate: (id: string, input: ReasonTemplateInput) =>
      apiJson<ReasonTemplate>('PUT', `/api/admin/reason-templates/${encodeURIComponent(id)}`, input),
    deleteReasonTemplate: (id: string) => apiJson<void>('DELETE', `/api/admin/reason-templates/${encodeURIComponent(id)}`),
    /** Decisions, time to decision and reports over the last `days` days. */
    reviewFigures: (days: number) => apiJson<ReviewFigures>('GET', `/api/admin/review-figures?days=${days}`),
    uploadAllowanceSettings: () => apiJson<UploadAllowanceSettings>('GET', '/api/admin/upload-allowance'),
    setUploadAllowanceSettings: (settings: UploadAllowanceSettings) => apiJson<UploadAllowanceSettings>('PUT', '/api/admin/upload-allowance', settings),
    reportedPhotos: (order: ReportedPhotoOrder, page: number, limit: number) =>
      apiJson<ReportedPhotoPage>('GET', `/api/admin/reports?order=${order}&page=${page}&limit=${limit}`),
    /** Dismisses a photo's open reports, or removes the photo with a reason its owner sees. */
    decideReports: ({ photoId, ...decision }: ReportDecisionInput) =>
      apiJson<ReportDecisionResult>('POST', `/api/admin/reports/${photoId}/decision`, decision),
    /** Deletes a photo at any status. */
    removePhoto: (id: number) => apiJson<void>('DELETE', `/api/admin/photos/${id}`),
    cleanup: (kind: CleanupKind) => apiJson<CleanupResult>('POST', `/api/admin/cleanup/${kind}`),
    users: (search: AdminUsersSearch) => apiJson<AdminUserPage>('GET', adminUsersUrl(search)),
    updateUser: (id: string, edit: AdminUserEdit) =>
      apiJson<AdminUser>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, edit),
    /** 204 on success; 403 for an admin account. */
    removeUser: (id: string) => apiJson<void>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`),
    contactForms: (filter: ContactFormFilter, page: number, limit: number) =>
      apiJson<ContactFormList>('GET', `/api/admin/contact-forms?status=${filter}&page=${page}&limit=${limit}`),
    setContactFormStatus: (id: number, status: ContactFormStatus) =>
      apiJson<ContactFormItem>('PATCH', `/api/admin/contact-forms/${id}/status`, { status }),
    /** Every member who rated a photo, with their figures, sorted by one of them (highest first). */
    raters: (sort: RaterSort, page: number, limit: number) =>
      apiJson<RaterPage>('GET', `/api/admin/raters?sort=${sort}&page=${page}&limit=${limit}`),
    /** A rater's votes, newest first, and what admins did to them; 404 when the member has no votes. */
    raterVotes: (userId: string, page: number, limit: number) =>
      apiJson<RaterVotePage>('GET', `/api/admin/raters/${encodeURIComponent(userId)}/votes?page=${page}&limit=${limit}`),
    /** Sets aside a rater's votes on the photos listed (all of them without a list), with a reason. */
    voidVotes: (userId: string, input: VoteVoidInput) =>
      apiJson<VoteVoidResult>('POST', `/api/admin/raters/${encodeURIComponent(userId)}/voids`, input),
    /** Lets a rater's voided votes count again (on the photos listed, or all of them), with a reason. */
    restoreVotes: (userId: string, input: VoteVoidInput) =>
      apiJson<VoteVoidResult>('POST', `/api/admin/raters/${encodeURIComponent(userId)}/restorations`, input),
  },
  googleDrive: {
    authUrl: () => apiJson<GoogleDriveAuthUrl>('GET', '/api/google-drive/auth-url'),
    exchangeToken: (code: string) =>
      apiJson<GoogleDriveRefreshToken>('POST', '/api/google-drive/exchange-token', { code }),
  },
};
