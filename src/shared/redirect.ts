/**
 * A redirect target is honoured only when it is a same-site relative path: it starts with a single
 * "/", is not protocol-relative ("//host", "/\host"), and holds no control characters. Anything
 * else falls back (to the dashboard by default).
 */
export function safeRedirect(target: unknown, fallback = '/dashboard'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2000) return fallback;
  if (!target.startsWith('/')) return fallback;
  if (target.startsWith('//') || target.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, 'http://backbeat.invalid');
    if (url.origin !== 'http://backbeat.invalid') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** `/login?to=<encoded target>` for a page that needs sign-in. */
export function loginUrl(target: string): string {
  return `/login?to=${encodeURIComponent(target)}`;
}
