/**
 * Every address the site sends a browser to (a redirect, a `?to=` / `redirect` value, a stored link
 * an admin sets) is decided by `siteAddress`. It judges the address a browser will actually follow:
 * the value is resolved against the site's origin with the WHATWG URL parser (the browser's own
 * rules: tabs and newlines dropped, "\" read as "/", dot segments and "%2e" segments resolved), and
 * accepted only when
 * - the resolved address is on the site's origin, with no user name or password in it;
 * - the address we hand back (path, query and hash of the resolved one) cannot itself be read as
 *   another host: its path starts with exactly one "/" ("/.//evil" resolves to the path "//evil",
 *   which a browser would read as the host "evil"), and holds no encoded "/" or "\" that a proxy or
 *   a decoding router could turn back into one;
 * - reading the answer again gives the same address (so the check and the browser agree).
 * On top, the value as typed must start with "/" (or be an absolute address on `origin` when the
 * caller knows the site's origin), hold no control characters or "\", and be at most
 * REDIRECT_MAX characters, before and after normalising.
 */

/** the longest address accepted, as given and as normalised */
export const REDIRECT_MAX = 2000;

/**
 * Stands in for the site's origin when the caller does not know it: only path-shaped values are
 * accepted then, and resolving a path gives the same path under any http(s) origin.
 */
const PLACEHOLDER_ORIGIN = 'http://backbeat.invalid';

// eslint-disable-next-line no-control-regex
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f-\u009f\\]/;
const ENCODED_SLASH = /%(2f|5c)/i;

/**
 * The on-site address (path + query + hash, normalised as a browser would) that `target` leads to,
 * or null when it would leave the site or cannot be trusted to stay on it.
 * `origin` (e.g. `window.location.origin`, or the configured APP_URL) also admits absolute
 * addresses on that origin; without it only paths are accepted.
 */
export function siteAddress(target: unknown, origin?: string): string | null {
  if (typeof target !== 'string' || target.length === 0 || target.length > REDIRECT_MAX) return null;
  if (CONTROL_OR_BACKSLASH.test(target)) return null;
  let base: URL;
  try {
    base = new URL(origin ?? PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  const absolute = origin !== undefined && /^https?:\/\//i.test(target);
  if (!target.startsWith('/') && !absolute) return null;
  let url: URL;
  try {
    url = new URL(target, base.origin);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username !== '' || url.password !== '') return null;
  const path = url.pathname;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || ENCODED_SLASH.test(path)) return null;
  const out = path + url.search + url.hash;
  if (out.length > REDIRECT_MAX) return null;
  // the answer must read back as the very address that was judged
  if (new URL(out, base.origin).href !== url.href) return null;
  return out;
}

/** `siteAddress`, or `fallback` (the dashboard by default) when the target would leave the site. */
export function safeRedirect(target: unknown, fallback = '/dashboard', origin?: string): string {
  return siteAddress(target, origin) ?? fallback;
}

/** `/login?to=<encoded target>` for a page that needs sign-in. */
export function loginUrl(target: string): string {
  return `/login?to=${encodeURIComponent(target)}`;
}
