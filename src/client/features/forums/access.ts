import { formatDistanceToNow } from 'date-fns';
import { COMMUNITY_ENTITLEMENTS } from '#shared/community';
import { pageConfig } from '#client/lib/page-config.ts';
import { formatWhen } from '#client/lib/dates.ts';

/** The page may show the forums: members, mentorship students and admins (the server checks again). */
export function mayUseCommunityClient(): boolean {
  const config = pageConfig();
  if (config.authId === null) return false;
  return config.admin || COMMUNITY_ENTITLEMENTS.some((kind) => config.entitlements.includes(kind));
}

/** "3 minutes ago", "about 2 hours ago": the site's one wording for relative times (date-fns) */
export const relativeTime = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

export const formatDate = (iso: string) => formatWhen(iso, 'en', { year: 'numeric', month: 'short', day: 'numeric' });

export const commentsLabel = (n: number) => `${n} ${n === 1 ? 'comment' : 'comments'}`;
