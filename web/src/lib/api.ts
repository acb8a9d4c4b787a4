/**
 * The one typed client for the gateway's HTTP API.
 *
 * Every call sends the session cookie, sends JSON only when a body is given, and turns any non-ok
 * response into an ApiError whose message is `${status}: ${body text or status text}` (SPEC §8).
 */
import type {
  ContactMessageInput,
  GalleryFilterId,
  GalleryPage,
  GalleryStats,
  GoogleDriveAuthUrl,
  GoogleDriveRefreshToken,
  MyVote,
  PhotoPreview,
  PhotoUpdateInput,
  PrivacyBar,
  PrivacyBarsResponse,
  UploadedPhoto,
  User,
  UserPhoto,
  VoteResult,
} from './types';
import { uploadWithProgress, type UploadProgress } from './upload';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  throw new ApiError(response.status, await response.text(), response.statusText);
}

/** `keepalive`: the request is sent even if the page is hidden or unloaded meanwhile (a held decision, say). */
export interface RequestOptions {
  keepalive?: boolean;
}

/** Sends a request and returns the raw (ok) response. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown, { keepalive }: RequestOptions = {}): Promise<Response> {
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
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown, options?: RequestOptions): Promise<T> {
  const response = await apiRequest(method, url, body, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Where the gateway serves uploaded photo files. */
export function photoFileUrl(filename: string): string {
  return `/api/uploads/${encodeURIComponent(filename)}`;
}

/** The multipart body of POST /api/photos: the file as `photo`, and `description` only when not blank. */
export function buildPhotoUploadForm(file: File, description?: string): FormData {
  const form = new FormData();
  // The description goes first, so the server knows it before the file's bytes start streaming.
  const trimmed = description?.trim();
  if (trimmed) form.append('description', trimmed);
  form.append('photo', file, file.name);
  return form;
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
     * Uploads one photo (multipart `photo` and optional `description`), reporting upload progress.
     * Uses XMLHttpRequest because fetch has no upload progress events.
     */
    upload: (
      file: File,
      description?: string,
      onProgress?: (progress: UploadProgress) => void,
      options: { signal?: AbortSignal } = {},
    ) =>
      uploadWithProgress<UploadedPhoto>('/api/photos', buildPhotoUploadForm(file, description), {
        onProgress,
        signal: options.signal,
      }),
    getPrivacyBars: (id: number) => apiJson<PrivacyBarsResponse>('GET', `/api/photos/${id}/privacy-bars`),
    setPrivacyBars: (id: number, bars: PrivacyBar[]) =>
      apiJson<PrivacyBarsResponse>('POST', `/api/photos/${id}/privacy-bars`, { bars }),
    update: (id: number, input: PhotoUpdateInput) => apiJson<unknown>('PATCH', `/api/photos/${id}`, input),
    /** Deletes one of the user's own photos; the gateway answers 204. */
    remove: (id: number) => apiJson<void>('DELETE', `/api/photos/${id}`),
  },
  user: {
    photos: () => apiJson<UserPhoto[]>('GET', '/api/user/photos'),
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
  googleDrive: {
    authUrl: () => apiJson<GoogleDriveAuthUrl>('GET', '/api/google-drive/auth-url'),
    exchangeToken: (code: string) =>
      apiJson<GoogleDriveRefreshToken>('POST', '/api/google-drive/exchange-token', { code }),
  },
};
