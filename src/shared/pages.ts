/**
 * Who may open each page address. The server checks this table before it serves the app for a
 * browser navigation (a signed-out visitor opening a members' page goes to /login?to=...), and the
 * client router uses the same table. Patterns use React Router syntax (`:id`, `*`).
 */
export type PageAccess = 'public' | 'guest' | 'member' | 'subscriber' | 'mentorship' | 'admin';

export const PAGE_ACCESS: ReadonlyArray<{ pattern: string; access: PageAccess }> = [
  { pattern: '/', access: 'public' },
  { pattern: '/login', access: 'guest' },
  { pattern: '/register', access: 'guest' },
  { pattern: '/password/forgot', access: 'guest' },
  { pattern: '/password/reset/:token', access: 'public' },
  { pattern: '/terms', access: 'public' },
  { pattern: '/accessibility', access: 'public' },
  { pattern: '/dashboard', access: 'member' },
  { pattern: '/account/profile', access: 'member' },
  { pattern: '/account/billing', access: 'member' },
  { pattern: '/account/billing/receipts/:number', access: 'member' },
  { pattern: '/account/notifications', access: 'member' },
  { pattern: '/unsubscribe/:token', access: 'public' },
  { pattern: '/notifications', access: 'member' },
  { pattern: '/notifications/:id', access: 'member' },
  { pattern: '/profile/:slug', access: 'member' },
  { pattern: '/mentorship', access: 'mentorship' },
  // mentorship checkout: visitors sign in or register inside it
  { pattern: '/mentorship/checkout', access: 'public' },
  { pattern: '/mentorship/stripe/charge', access: 'member' },
  { pattern: '/mentorship/stripe/checkout', access: 'public' },
  { pattern: '/mentorship/stripe/:payment', access: 'public' },
  // the mentorship area (docs/product/mentorship.md)
  { pattern: '/mentorship/practice-plan', access: 'mentorship' },
  { pattern: '/mentorship/practice-plan-days', access: 'admin' },
  { pattern: '/mentorship/lessons', access: 'mentorship' },
  { pattern: '/mentorship/lessons/:id', access: 'mentorship' },
  { pattern: '/mentorship/accountability', access: 'mentorship' },
  { pattern: '/mentorship/videos', access: 'mentorship' },
  { pattern: '/mentorship/videos/:id', access: 'mentorship' },
  { pattern: '/mentorship/students', access: 'admin' },
  { pattern: '/mentorship/students/:id', access: 'admin' },
  { pattern: '/mentorship/students/:id/practice-plan', access: 'admin' },
  { pattern: '/mentorship/students/:id/videos', access: 'admin' },
  { pattern: '/mentorship/account', access: 'member' },
  { pattern: '/mentorship/notifications', access: 'member' },
  { pattern: '/mentorship/notifications/:id', access: 'member' },
  { pattern: '/courses', access: 'public' },
  { pattern: '/courses/:slug', access: 'public' },
  { pattern: '/lessons/:id', access: 'member' },
  { pattern: '/stages', access: 'member' },
  { pattern: '/stages/:id', access: 'member' },
  { pattern: '/journal', access: 'member' },
  { pattern: '/friends', access: 'member' },
  { pattern: '/placement', access: 'member' },
  { pattern: '/achievements', access: 'member' },
  { pattern: '/diagnostic', access: 'public' },
  { pattern: '/metronome', access: 'public' },
  { pattern: '/songmapper', access: 'member' },
  { pattern: '/songmapper/:id', access: 'member' },
  { pattern: '/mentorship/songmapper', access: 'mentorship' },
  { pattern: '/mentorship/songmapper/:id', access: 'mentorship' },
  { pattern: '/forums', access: 'subscriber' },
  { pattern: '/forums/topic/:id', access: 'subscriber' },
  { pattern: '/forums/post/:id/edit', access: 'subscriber' },
  { pattern: '/forums/:slug', access: 'subscriber' },
  { pattern: '/posts/:id', access: 'member' },
  { pattern: '/live', access: 'subscriber' },
  { pattern: '/live/:id', access: 'subscriber' },
  { pattern: '/admin', access: 'admin' },
  { pattern: '/admin/*', access: 'admin' },
  { pattern: '/join', access: 'public' },
  { pattern: '/join/:slug', access: 'public' },
  { pattern: '/order', access: 'member' },
  { pattern: '/double-kick-mastery/register', access: 'public' },
  { pattern: '/checkout/double-kick-mastery', access: 'public' },
  { pattern: '/checkout/course/register', access: 'public' },
  { pattern: '/checkout/course', access: 'public' },
  { pattern: '/sandbox/*', access: 'public' },
  { pattern: '/dev/outbox', access: 'public' },
];

/** Match a path against a pattern in the table's syntax; returns null or the params. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (part === '*') return params;
    const seg = s[i];
    if (seg === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(seg);
    else if (part !== seg) return null;
  }
  return p.length === s.length ? params : null;
}

/** Pages under this prefix exist only on a development server (never with NODE_ENV=production). */
export const DEV_PAGES_PREFIX = '/dev/';

export function accessFor(path: string): PageAccess | null {
  for (const entry of PAGE_ACCESS) if (matchPattern(entry.pattern, path)) return entry.access;
  return null;
}
