/**
 * The one typed client for the gateway's HTTP API.
 *
 * Every call sends the session cookie, sends JSON only when a body is given, and turns any non-ok
 * response into an Error whose message is `${status}: ${body text or status text}` (SPEC §8).
 */
import type { ContactMessageInput, GalleryFilterId, GalleryPage, PhotoPreview, User } from './types';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = (await response.text()) || response.statusText;
  throw new Error(`${response.status}: ${text}`);
}

/** Sends a request and returns the raw (ok) response. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(response);
  return response;
}

/** Sends a request and parses the JSON answer; an empty answer (e.g. 204) becomes `undefined`. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const response = await apiRequest(method, url, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** True for the errors this client throws on a 401 answer. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('401: ');
}

/** The HTTP status carried by an error from this client, if any. */
export function getErrorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The `message` of a JSON error body (`{"message": "..."}`) carried by an error from this client,
 * or `fallback` when the body is not such JSON.
 */
export function getServerMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const separator = error.message.indexOf(': ');
  if (separator < 0) return fallback;
  try {
    const body: unknown = JSON.parse(error.message.slice(separator + 2));
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) {
      return body.message;
    }
  } catch {
    // Not JSON: the server sent plain text or an HTML error page, neither of which is meant for users.
  }
  return fallback;
}

/** Where the gateway serves uploaded photo files. */
export function photoFileUrl(filename: string): string {
  return `/api/uploads/${encodeURIComponent(filename)}`;
}

export const api = {
  auth: {
    /** The signed-in user; fails with 401 when signed out and 403 for a disabled account. */
    currentUser: () => apiJson<User>('GET', '/api/auth/user'),
    acceptTerms: () => apiJson<unknown>('POST', '/api/auth/accept-terms', { hasAcceptedTerms: true }),
  },
  photos: {
    list: () => apiJson<PhotoPreview[]>('GET', '/api/photos'),
  },
  gallery: {
    page: (filter: GalleryFilterId, page: number, limit: number) =>
      apiJson<GalleryPage>('GET', `/api/gallery/${filter}?page=${page}&limit=${limit}`),
  },
  contact: {
    send: (input: ContactMessageInput) => apiJson<unknown>('POST', '/api/contact', input),
  },
};
