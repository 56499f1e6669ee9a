import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, X } from 'lucide-react';
import { formatMoney } from '#shared/money';
import { receiptHref, refundEffect, type SubscriptionPayment, type SubscriptionPayments } from '#shared/receipts';
import { get, post } from '#client/lib/api.ts';
import { Panel, StateBadge } from '#client/components/admin/form.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { centsText, toCents } from './money.ts';

const day = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
    : '—';
const newKey = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * the refund form of one payment: the amount (the rest of the payment by default) and, before confirming, what it
 * does to access; its errors are shown the way every form shows them (components/ui/form-feedback.ts)
 */
function RefundForm({
  payment,
  data,
  onDone,
}: {
  payment: SubscriptionPayment;
  data: SubscriptionPayments;
  onDone: () => void;
}) {
  const qc = useQueryClient();
  const left = payment.amount_cents - payment.refunded_cents;
  const [amount, setAmount] = useState(centsText(left));
  const feedback = useFormFeedback();
  const [key] = useState(newKey);
  const cents = toCents(amount);
  const valid = Number.isFinite(cents) && cents > 0 && cents <= left;
  const live =
    data.subscription.access_ends_at !== null && new Date(data.subscription.access_ends_at).getTime() > Date.now();
  const effect = valid
    ? refundEffect({
        member: data.subscription.member,
        amountCents: cents,
        paidCents: payment.amount_cents,
        refundedCents: payment.refunded_cents,
        latest: payment.latest,
        currency: payment.currency,
        accessEndsAt: data.subscription.access_ends_at,
        live,
      })
    : null;
  const refund = useMutation({
    mutationFn: () =>
      post<{ message: string; payments: SubscriptionPayments }>(`/api/admin/invoices/${payment.invoice_id}/refund`, {
        amount_cents: cents,
        idempotency_key: key,
      }),
    onSuccess: (res) => {
      toast(res.message);
      qc.setQueryData(['admin-subscription-payments', data.subscription.id], res.payments);
      void qc.invalidateQueries({ queryKey: ['admin-subscriptions'] });
      onDone();
    },
    onError: (err) => feedback.fail(err),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (refund.isPending) return;
    feedback.clear();
    if (!valid) {
      feedback.show(
        {
          amount_cents:
            Number.isFinite(cents) && cents > left
              ? `At most ${formatMoney(left, payment.currency)} of this payment can still be refunded.`
              : 'Enter an amount above zero, in dollars and cents.',
        },
        null,
      );
      return;
    }
    refund.mutate();
  }
  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      className="mt-3 flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
      noValidate
      aria-label={`Refund payment ${payment.receipt ?? payment.invoice_id}`}
    >
      <Field
        label={`Amount to refund (at most ${formatMoney(left, payment.currency)})`}
        inputMode="decimal"
        value={amount}
        name="amount_cents"
        onChange={(e) => {
          setAmount(e.target.value);
          feedback.edited('amount_cents');
        }}
        error={feedback.error('amount_cents')}
        autoFocus
      />
      <p role="status" className="rounded-lg bg-warning-soft px-3 py-2 font-semibold" data-testid="refund-effect">
        {effect ?? 'Enter an amount to see what the refund does to access.'}
      </p>
      <FormError message={feedback.summary} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" variant="danger" disabled={refund.isPending}>
          <RotateCcw aria-hidden className="size-4" />{' '}
          {valid ? `Refund ${formatMoney(cents, payment.currency)}` : 'Refund'}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Keep the payment
        </Button>
      </div>
    </form>
  );
}

/** A subscription's payments on /admin/subscriptions: receipts, what was refunded, and a refund of any of them, whole or part. */
export function SubscriptionPaymentsPanel({ id, onClose }: { id: number; onClose: () => void }) {
  const payments = useQuery({
    queryKey: ['admin-subscription-payments', id],
    queryFn: () => get<SubscriptionPayments>(`/api/admin/subscriptions/${id}/payments`),
  });
  const [refunding, setRefunding] = useState<number | null>(null);
  return (
    <Panel className="mb-6">
      <div className="mb-4 flex items-start justify-between gap-3">
        <h2 className="text-lg font-bold">Payments{payments.data ? ` of ${payments.data.subscription.member}` : ''}</h2>
        <Button variant="ghost" aria-label="Close the payments" onClick={onClose}>
          <X aria-hidden className="size-5" />
        </Button>
      </div>
      <Loading query={payments}>
        {(data) => (
          <div data-testid="subscription-payments">
            <p className="mb-3 text-muted">
              {data.subscription.plan === 'yearly' ? 'Yearly' : 'Monthly'} membership,{' '}
              <StateBadge state={data.subscription.status}>{data.subscription.status.replace(/_/g, ' ')}</StateBadge> ·
              access until {day(data.subscription.access_ends_at)}
            </p>
            {data.payments.length === 0 ? (
              <p className="text-muted">No payments yet.</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {data.payments.map((p) => {
                  const left = p.amount_cents - p.refunded_cents;
                  return (
                    <li key={p.invoice_id} className="rounded-xl bg-surface-2 p-3">
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        <span className="tabular text-lg font-semibold">{formatMoney(p.amount_cents, p.currency)}</span>
                        <span className="text-muted">{day(p.paid_at)}</span>
                        {p.latest ? <StateBadge state="active">Latest</StateBadge> : null}
                        {p.receipt ? (
                          <a href={receiptHref(p.receipt)} className="font-semibold text-accent-strong hover:underline">
                            {p.receipt}
                          </a>
                        ) : null}
                        {p.refunded_cents > 0 ? (
                          <span className="text-sm text-muted">
                            {formatMoney(p.refunded_cents, p.currency)} refunded
                          </span>
                        ) : null}
                        {left > 0 && refunding !== p.invoice_id ? (
                          <Button variant="secondary" className="ml-auto" onClick={() => setRefunding(p.invoice_id)}>
                            <RotateCcw aria-hidden className="size-4" /> Refund…
                          </Button>
                        ) : null}
                      </div>
                      {refunding === p.invoice_id ? (
                        <RefundForm payment={p} data={data} onDone={() => setRefunding(null)} />
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        )}
      </Loading>
    </Panel>
  );
}
