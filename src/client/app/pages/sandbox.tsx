import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { dollars } from '#shared/commerce';
import { ApiError, get } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { PageTitle } from './common.tsx';

/**
 * The sandbox payment provider's own pages (issue 7): the PayPal-like approval page
 * (/sandbox/paypal/approve/:ref) and the card authentication page (/sandbox/authenticate/:paymentMethod).
 * They talk to the sandbox's endpoints only (no CSRF token: like a provider's site, they are not ours).
 */
export function SandboxPage() {
  const rest = useParams()['*'] ?? '';
  const approve = /^paypal\/approve\/([\w-]+)$/.exec(rest);
  if (approve) return <PaypalApproval reference={approve[1]!} />;
  const auth = /^authenticate\/([\w-]+)$/.exec(rest);
  if (auth) return <CardAuthentication paymentMethod={auth[1]!} />;
  return <PageTitle title="Sandbox" subtitle="There is nothing to see at this address." />;
}

async function sandboxPost(url: string, body: unknown = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, credentials: 'same-origin', body: JSON.stringify(body) });
  const data = (await res.json().catch(() => ({}))) as { url?: string; message?: string; error?: { message?: string } };
  if (!res.ok) throw new Error(data.error?.message ?? data.message ?? 'The sandbox could not do that. Please try again.');
  return data;
}

interface ApprovalInfo {
  ref: string;
  kind: 'order' | 'subscription';
  amountCents: number;
  description: string;
  interval: 'month' | 'year' | null;
  trialDays: number;
  status: 'pending' | 'approved' | 'canceled';
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-sm">
        <div className="flex items-center justify-between bg-[#003087] px-6 py-4 text-white">
          <span className="text-2xl font-extrabold italic tracking-tight">
            Pay<span className="text-[#009cde]">Pal</span>
          </span>
          <span className="rounded-full bg-white/15 px-3 py-1 text-xs font-semibold uppercase tracking-wide">Sandbox</span>
        </div>
        <div className="p-6">{children}</div>
      </div>
    </div>
  );
}

function PaypalApproval({ reference }: { reference: string }) {
  const info = useQuery({ queryKey: ['sandbox', 'paypal', reference], queryFn: () => get<ApprovalInfo>(`/sandbox/paypal/orders/${encodeURIComponent(reference)}`), retry: false });
  const [busy, setBusy] = useState<'approve' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: 'approve' | 'cancel') {
    setBusy(action);
    setError(null);
    try {
      const { url } = await sandboxPost(`/sandbox/paypal/${action}/${encodeURIComponent(reference)}`);
      window.location.assign(url ?? '/');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(null);
    }
  }

  if (info.isPending) return <Spinner />;
  if (info.isError || !info.data)
    return (
      <Shell>
        <h1 className="text-2xl font-bold">Payment not found</h1>
        <p className="mt-2 text-muted">{info.error instanceof ApiError && info.error.status === 404 ? 'This PayPal payment no longer exists.' : 'Please try again.'}</p>
      </Shell>
    );
  const d = info.data;
  const every = d.interval === 'year' ? 'year' : 'month';
  return (
    <Shell>
      <h1 className="text-2xl font-bold tracking-tight">{d.kind === 'subscription' ? 'Approve your subscription' : 'Approve your payment'}</h1>
      <p className="mt-1 text-muted">Signed in as buyer@sandbox.test</p>
      <dl className="my-6 rounded-xl border border-line p-4">
        <dt className="text-sm text-muted">{d.description || 'Backbeat'}</dt>
        <dd className="mt-1 text-3xl font-extrabold" data-testid="sandbox-amount">
          {dollars(d.amountCents)}
          {d.kind === 'subscription' ? <span className="text-base font-semibold text-muted"> / {every}</span> : null}
        </dd>
        {d.kind === 'subscription' && d.trialDays > 0 ? <dd className="mt-1 text-sm text-muted">Free for {d.trialDays} days, then {dollars(d.amountCents)} every {every}.</dd> : null}
      </dl>
      {d.status !== 'pending' ? <p className="mb-4 font-medium">{d.status === 'approved' ? 'This payment was approved already.' : 'This payment was cancelled.'}</p> : null}
      <div className="flex flex-col gap-3">
        <Button full disabled={busy !== null || d.status === 'canceled'} onClick={() => void act('approve')}>
          {busy === 'approve' ? 'Approving…' : 'Approve payment'}
        </Button>
        <Button full variant="secondary" disabled={busy !== null} onClick={() => void act('cancel')}>
          {busy === 'cancel' ? 'Returning…' : 'Cancel and return'}
        </Button>
      </div>
      <div className="mt-4">
        <FormError message={error} />
      </div>
    </Shell>
  );
}

/**
 * A stand-alone authentication page (the card form opens its own dialog; this page serves a popup
 * or a redirect: it tells window.opener `{type:'sandbox-authentication', paymentMethod, outcome}`
 * and closes, or goes to `?return=` with `outcome=` added).
 */
function CardAuthentication({ paymentMethod }: { paymentMethod: string }) {
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
    const back = params.get('return');
    if (window.opener) {
      (window.opener as Window).postMessage({ type: 'sandbox-authentication', paymentMethod, outcome: result }, window.location.origin);
      window.close();
    } else if (back && back.startsWith('/') && !back.startsWith('//')) {
      window.location.assign(`${back}${back.includes('?') ? '&' : '?'}outcome=${result}`);
      return;
    }
    setDone(result === 'complete' ? 'Authentication complete. You can close this page.' : 'Authentication failed. You can close this page.');
    setBusy(false);
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-2xl border border-line bg-surface p-6 shadow-sm">
      <div className="mb-4 flex items-center gap-3">
        <ShieldCheck aria-hidden className="size-8 text-accent" />
        <h1 className="text-2xl font-bold">Sandbox 3-D Secure</h1>
      </div>
      <p className="mb-6 text-muted">Your bank asks you to confirm this card. In the sandbox you choose what the bank answers.</p>
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
