import { AlertTriangle } from 'lucide-react';
import { MESSAGES } from '#shared/constants';
import { useUnavailable } from '#client/lib/availability.ts';
import { buttonClass } from './button.tsx';

/**
 * Under the header while the server answers 503: the member is not signed out, the service is briefly
 * away. The live region is always there, so that its message is announced when it appears.
 */
export function UnavailableBanner() {
  const unavailable = useUnavailable();
  return (
    <div role="status" aria-live="polite">
      {unavailable ? (
        <div className="border-t border-warning/40 bg-warning-soft">
          <div className="mx-auto flex max-w-7xl items-center gap-3 px-3 py-2 sm:px-6">
            <AlertTriangle aria-hidden className="size-5 shrink-0 text-warning" />
            <p className="min-w-0 flex-1 text-base">{MESSAGES.unavailable}</p>
            <button type="button" className={buttonClass('secondary')} onClick={() => window.location.reload()}>
              Try again
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
