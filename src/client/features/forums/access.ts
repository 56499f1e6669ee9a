import { format, formatDistanceToNow } from 'date-fns';
import { COMMUNITY_ENTITLEMENTS } from '#shared/community';
import { pageConfig } from '#client/lib/page-config.ts';

/** The page may show the forums: members, mentorship students and admins (the server checks again). */
export function mayUseCommunityClient(): boolean {
  const config = pageConfig();
  if (config.authId === null) return false;
  return config.admin || COMMUNITY_ENTITLEMENTS.some((kind) => config.entitlements.includes(kind));
}

/** "3 minutes ago", "about 2 hours ago": the site's one wording for relative times (date-fns) */
export const relativeTime = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

/**
 * "Mar 4, 2026" in the reader's time zone: what `toLocaleDateString('en', { year: 'numeric', month: 'short',
 * day: 'numeric' })` shows, written by date-fns, so the thread page makes no Intl formatter as it first
 * renders (the first one loads the locale data, a visible cost on a slow phone).
 */
export const formatDate = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

export const commentsLabel = (n: number) => `${n} ${n === 1 ? 'comment' : 'comments'}`;
