/** The longest page address sign-in remembers; anything longer was not made by the web app. */
export const MAX_RETURN_TO_LENGTH = 1000;

// Control characters (C0, DEL, C1) and backslashes, which browsers read as slashes.
const UNSAFE = /[\p{Cc}\\]/u;
// Our own origin, only to resolve a path against: what comes out must still be on it.
const BASE = 'http://return-to.invalid';

/**
 * The page of our own site to come back to after sign-in, as path and query (`/dashboard?tab=1`), or undefined when
 * `raw` is not one: it must start with a single `/` (not `//` or `/\`, which browsers take for another host), hold no
 * scheme, control character or backslash, and not lead into `/api` (the sign-in and sign-out routes themselves), each
 * checked on the text as given and once its percent-escapes are decoded, so a later decoding cannot make it another
 * host. Dot segments are resolved first (`/x/../api/logout` is `/api/logout`), the hash is dropped (browsers never send
 * it), and what is answered is percent-encoded ASCII, safe in a Location header.
 */
export function sameOriginPath(raw: string): string | undefined {
  if (raw.length > MAX_RETURN_TO_LENGTH || !isPlainPath(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  const path = url.pathname + url.search;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (path.length > MAX_RETURN_TO_LENGTH || !isPlainPath(path) || !isPlainPath(decoded)) return undefined;
  return path;
}

function isPlainPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !UNSAFE.test(path) && !/^\/api(?:[/?#;]|$)/i.test(path);
}

/** The sign-in route, coming back to `returnTo` (a path `sameOriginPath` accepted) when given. */
export function loginPath(returnTo: string | undefined): string {
  return returnTo === undefined ? '/api/login' : `/api/login?returnTo=${encodeURIComponent(returnTo)}`;
}
