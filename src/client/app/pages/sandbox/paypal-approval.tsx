import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '#shared/money';
import type { SandboxApproval } from '#shared/payments-sandbox';
import { ApiError, get } from '#client/lib/api.ts';
import { navigate } from '#client/lib/browser.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { sandboxPost } from './sandbox-post.ts';

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-sm">
        <div className="flex items-center justify-between bg-[#003087] px-6 py-4 text-white">
          <span className="text-2xl font-extrabold italic tracking-tight">
            Pay<span className="text-[#0070ba]">Pal</span>
          </span>
          <span className="rounded-full bg-white/15 px-3 py-1 text-xs font-semibold uppercase tracking-wide">
            Sandbox
          </span>
        </div>
        <div className="p-6">{children}</div>
      </div>
    </div>
  );
}

/** The PayPal-like approval page (/sandbox/paypal/approve/:ref): approve, or cancel and return. */
export function PaypalApproval({ reference }: { reference: string }) {
  const info = useQuery({
    queryKey: ['sandbox', 'paypal', reference],
    queryFn: () => get<SandboxApproval>(`/sandbox/paypal/orders/${encodeURIComponent(reference)}`),
    retry: false,
  });
  const [busy, setBusy] = useState<'approve' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: 'approve' | 'cancel') {
    setBusy(action);
    setError(null);
    try {
      const { url } = await sandboxPost(`/sandbox/paypal/${action}/${encodeURIComponent(reference)}`);
      navigate.within(url, '/');
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
        <p className="mt-2 text-muted">
          {info.error instanceof ApiError && info.error.status === 404
            ? 'This PayPal payment no longer exists.'
            : 'Please try again.'}
        </p>
      </Shell>
    );
  const d = info.data;
  const every = d.interval === 'year' ? 'year' : 'month';
  return (
    <Shell>
      <h1 className="text-2xl font-bold tracking-tight">
        {d.kind === 'subscription' ? 'Approve your subscription' : 'Approve your payment'}
      </h1>
      <p className="mt-1 text-muted">Signed in as buyer@sandbox.test</p>
      <dl className="my-6 rounded-xl border border-line p-4">
        <dt className="text-sm text-muted">{d.description || 'Backbeat'}</dt>
        <dd className="mt-1 text-3xl font-extrabold" data-testid="sandbox-amount">
          {formatMoney(d.amountCents)}
          {d.kind === 'subscription' ? <span className="text-base font-semibold text-muted"> / {every}</span> : null}
        </dd>
        {d.kind === 'subscription' && d.trialDays > 0 ? (
          <dd className="mt-1 text-sm text-muted">
            Free for {d.trialDays} days, then {formatMoney(d.amountCents)} every {every}.
          </dd>
        ) : null}
      </dl>
      {d.status !== 'pending' ? (
        <p className="mb-4 font-medium">
          {d.status === 'approved' ? 'This payment was approved already.' : 'This payment was cancelled.'}
        </p>
      ) : null}
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
