import { post } from './api.ts';
import { pageConfig } from './page-config.ts';

const COOKIE = 'bb_tz_sent';

/** Once a day (a one-day cookie) a signed-in browser tells the server its time zone (spec 001 §4). */
export function reportTimezoneDaily() {
  if (pageConfig().authId === null || document.cookie.split('; ').some((c) => c.startsWith(`${COOKIE}=`))) return;
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!timezone) return;
  document.cookie = `${COOKIE}=1; max-age=86400; path=/; samesite=lax`;
  post('/dashboard/update-timezone', { timezone }).catch(() => undefined);
}
