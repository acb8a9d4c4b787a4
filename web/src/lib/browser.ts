/**
 * Browser-level side effects, kept behind one module so that tests can replace them
 * (jsdom cannot perform full-page navigations).
 */
import { WEB, sameOriginPath } from '@snapcracks/http-contract';
import { LOGIN_URL } from './api';

/**
 * The sign-in route, coming back to `returnTo` afterwards: a path of this site with its query
 * (`/dashboard`, `/admin/users?page=2`). Without one, or for `/`, or anything the gateway would not come back to
 * (the contract's rule, sameOriginPath), it is plain LOGIN_URL and sign-in lands on `/`.
 */
export function loginHref(returnTo?: string): string {
  if (!returnTo || returnTo === '/' || sameOriginPath(returnTo) === undefined) return LOGIN_URL;
  // Slashes may stay as they are in a query value, and read better.
  return `${LOGIN_URL}?returnTo=${encodeURIComponent(returnTo).replace(/%2F/g, '/')}`;
}

/** The page the browser shows, path and query: what sign-in comes back to outside React. */
export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

/** A full browser navigation: sign-in and sign-out are server routes, not app routes. */
export function redirectTo(url: string): void {
  window.location.href = url;
}

export function reloadPage(): void {
  window.location.reload();
}

/** Scroll offset that keeps a section heading clear of the sticky navbar (SPEC §9). */
export const ANCHOR_SCROLL_OFFSET = WEB.anchorOffsetPx;

/** Smoothly scrolls so that the element with `id` sits `offset` pixels below the top; false if absent. */
export function scrollToElementId(id: string, offset = ANCHOR_SCROLL_OFFSET): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const top = element.getBoundingClientRect().top + window.scrollY - offset;
  window.scrollTo({ top, behavior: 'smooth' });
  return true;
}
