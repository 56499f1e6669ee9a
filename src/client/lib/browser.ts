/** Where the browser goes next; a seam for tests (spy on `navigate.to`). */
export const navigate = {
  to(url: string) {
    window.location.assign(url);
  },
};

/** One key per paying attempt (sent as its idempotency key): a double click or a retried request is one order. */
export function newAttemptKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
