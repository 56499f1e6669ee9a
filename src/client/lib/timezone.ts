import { post } from './api.ts';
import { pageConfig } from './page-config.ts';

const COOKIE = 'bb_tz_sent';

const onMainThread = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The browser's IANA time zone. Asked of a worker (lib/timezone-worker.ts): the main thread would spend
 * a visible time loading the locale data for it while the page renders.
 */
function browserTimeZone(): Promise<string> {
  if (typeof Worker === 'undefined') return Promise.resolve(onMainThread());
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./timezone-worker.ts', import.meta.url), { type: 'module' });
    } catch {
      resolve(onMainThread());
      return;
    }
    worker.onmessage = (event: MessageEvent<unknown>) => {
      worker.terminate();
      resolve(typeof event.data === 'string' ? event.data : '');
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(onMainThread());
    };
  });
}

/** Once a day (a one-day cookie) a signed-in browser tells the server its zone (docs/product/pages-and-http.md). */
export function reportTimezoneDaily() {
  if (pageConfig().authId === null || document.cookie.split('; ').some((c) => c.startsWith(`${COOKIE}=`))) return;
  // set first: a second page opened meanwhile does not ask again
  document.cookie = `${COOKIE}=1; max-age=86400; path=/; samesite=lax`;
  void browserTimeZone().then((timezone) => {
    if (timezone) post('/dashboard/update-timezone', { timezone }).catch(() => undefined);
  });
}
