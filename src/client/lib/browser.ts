import { safeRedirect } from '#shared/redirect';

/** Where the browser goes next; a seam for tests (spy on `navigate.to`). */
export const navigate = {
  to(url: string) {
    window.location.assign(url);
  },
  /**
   * Go to an address on this site: a `to`/`redirect` value (from the address bar or an answer) is
   * followed only when `safeRedirect` keeps it on the site, otherwise `fallback` is.
   */
  within(target: unknown, fallback = '/dashboard') {
    navigate.to(safeRedirect(target, fallback, window.location.origin));
  },
};

/** One key per paying attempt (sent as its idempotency key): a double click or a retried request is one order. */
export function newAttemptKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
