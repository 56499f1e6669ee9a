import { COMMUNITY_ENTITLEMENTS } from '#shared/community';
import { pageConfig } from '#client/lib/page-config.ts';

/** The page may show the forums: members, mentorship students and admins (the server checks again). */
export function mayUseCommunityClient(): boolean {
  const config = pageConfig();
  if (config.authId === null) return false;
  return config.admin || COMMUNITY_ENTITLEMENTS.some((kind) => config.entitlements.includes(kind));
}

/** "3 minutes ago", "yesterday", "2 weeks ago" */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return rtf.format(Math.round(seconds / 86_400), 'day');
  if (abs < 30 * 86_400) return rtf.format(Math.round(seconds / (7 * 86_400)), 'week');
  if (abs < 365 * 86_400) return rtf.format(Math.round(seconds / (30 * 86_400)), 'month');
  return rtf.format(Math.round(seconds / (365 * 86_400)), 'year');
}

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });

export const commentsLabel = (n: number) => `${n} ${n === 1 ? 'comment' : 'comments'}`;
