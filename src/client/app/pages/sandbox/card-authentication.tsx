import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { siteAddress } from '#shared/redirect';
import { navigate } from '#client/lib/browser.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { sandboxPost } from './sandbox-post.ts';

/**
 * A stand-alone authentication page (the card form opens its own dialog; this page serves a popup
 * or a redirect: it tells window.opener `{type:'sandbox-authentication', paymentMethod, outcome}`
 * and closes, or goes to `?return=` with `outcome=` added).
 */
export function CardAuthentication({ paymentMethod }: { paymentMethod: string }) {
  const [params] = useSearchParams();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(outcome: 'complete' | 'fail') {
    setBusy(true);
    setError(null);
    let result: 'complete' | 'fail' = outcome;
    try {
      await sandboxPost(`/sandbox/authenticate/${encodeURIComponent(paymentMethod)}`, { outcome });
    } catch (err) {
      result = 'fail';
      if (outcome === 'complete') setError(err instanceof Error ? err.message : String(err));
    }
    // like the provider's page it stands for, it only ever sends the buyer back to this site
    const back = siteAddress(params.get('return'), window.location.origin);
    if (window.opener) {
      (window.opener as Window).postMessage(
        { type: 'sandbox-authentication', paymentMethod, outcome: result },
        window.location.origin,
      );
      window.close();
    } else if (back !== null) {
      navigate.to(`${back}${back.includes('?') ? '&' : '?'}outcome=${result}`);
      return;
    }
    setDone(
      result === 'complete'
        ? 'Authentication complete. You can close this page.'
        : 'Authentication failed. You can close this page.',
    );
    setBusy(false);
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-2xl border border-line bg-surface p-6 shadow-sm">
      <div className="mb-4 flex items-center gap-3">
        <ShieldCheck aria-hidden className="size-8 text-accent" />
        <h1 className="text-2xl font-bold">Sandbox 3-D Secure</h1>
      </div>
      <p className="mb-6 text-muted">
        Your bank asks you to confirm this card. In the sandbox you choose what the bank answers.
      </p>
      {done ? (
        <p role="status" className="font-medium">
          {done}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <Button full disabled={busy} onClick={() => void act('complete')}>
            Complete authentication
          </Button>
          <Button full variant="secondary" disabled={busy} onClick={() => void act('fail')}>
            Fail authentication
          </Button>
        </div>
      )}
      <div className="mt-4">
        <FormError message={error} />
      </div>
    </div>
  );
}
