/**
 * Browser-level side effects, kept behind one module so that tests can replace them
 * (jsdom cannot perform full-page navigations).
 */

export const LOGIN_URL = '/api/login';
export const LOGOUT_URL = '/api/logout';

/** A full browser navigation: sign-in and sign-out are server routes, not app routes. */
export function redirectTo(url: string): void {
  window.location.href = url;
}

export function reloadPage(): void {
  window.location.reload();
}

/** Scroll offset that keeps a section heading clear of the sticky navbar (SPEC §9). */
export const ANCHOR_SCROLL_OFFSET = 80;

/** Smoothly scrolls so that the element with `id` sits `offset` pixels below the top; false if absent. */
export function scrollToElementId(id: string, offset = ANCHOR_SCROLL_OFFSET): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const top = element.getBoundingClientRect().top + window.scrollY - offset;
  window.scrollTo({ top, behavior: 'smooth' });
  return true;
}
