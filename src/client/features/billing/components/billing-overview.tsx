import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { ArrowUpCircle, CreditCard, Infinity as InfinityIcon, PauseCircle } from 'lucide-react';
import { COMMERCE_MESSAGES, dollars, JOIN_URL } from '#shared/commerce';
import { BILLING_MESSAGES, longDate, type BillingInvoice, type BillingSubscription } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { openModal } from '#client/components/ui/modal.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { BILLING_KEY, newIdempotencyKey, resumeCall, useBilling } from '../api/billing.ts';
import { CARD_CANCEL_MODAL, CardCancelModal } from './card-cancel-modal.tsx';
import { PAYPAL_CANCEL_MODAL, PaypalCancelModal } from './paypal-cancel-modal.tsx';
import { UPGRADE_MODAL, UpgradeModal, upgradeChoices } from './upgrade-modal.tsx';
import { PastDueSection } from './past-due.tsx';

const STATUS_LABEL: Record<BillingSubscription['status'], string> = { trialing: 'Free trial', active: 'Active', past_due: 'Payment due', paused: 'Paused', canceled: 'Cancelled' };

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
    <h2 className="mb-4 text-xl font-bold">{title}</h2>
    {children}
  </section>
);

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm font-semibold text-muted">{label}</dt>
      <dd className="text-lg font-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Subscription({ sub, lifetime }: { sub: BillingSubscription; lifetime: boolean }) {
  const qc = useQueryClient();
  const [resuming, setResuming] = useState(false);
  const paused = sub.status === 'paused';
  const ending = sub.cancelAtPeriodEnd;
  // lifetime holders have nothing to upgrade to
  const canUpgrade = !lifetime && upgradeChoices(sub).length > 0;
  async function resume() {
    setResuming(true);
    try {
      toast((await resumeCall(newIdempotencyKey())).message);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      toast(errorMessage(err, ['subscription', 'payment']), 'danger');
    } finally {
      setResuming(false);
    }
  }
  return (
    <Section title="Your membership">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact label="Plan" testId="billing-plan">
          {sub.plan === 'yearly' ? 'Yearly' : 'Monthly'} membership{' '}
          <span className={clsx('ml-1 rounded-full px-2.5 py-0.5 align-middle text-sm', paused || ending ? 'bg-surface-2 text-muted' : 'bg-accent-soft text-accent-strong')}>{ending ? 'Cancelled' : STATUS_LABEL[sub.status]}</span>
        </Fact>
        <Fact label="Price" testId="billing-price">
          {dollars(sub.price)} a {sub.cycle}
          {sub.discount ? <span className="block text-sm font-medium text-accent-strong">{sub.discount}</span> : null}
        </Fact>
        <Fact label={paused ? 'Status' : ending ? 'Access' : 'Next billing date'} testId="billing-next">
          {paused ? 'Paused' : ending ? `Ends on ${longDate(sub.nextBillingDate)}` : longDate(sub.nextBillingDate)}
        </Fact>
        <Fact label="Payment method" testId="billing-method">
          <span className="inline-flex items-center gap-2">
            <CreditCard aria-hidden className="size-5 text-muted" />
            {sub.paymentMethod || (sub.provider === 'paypal' ? 'PayPal' : 'Card')}
          </span>
        </Fact>
      </dl>
      {paused ? (
        <div className="mt-5 flex flex-col gap-3 rounded-xl bg-surface-2 p-4 sm:flex-row sm:items-center">
          <PauseCircle aria-hidden className="size-6 shrink-0 text-muted" />
          <p className="flex-1">{BILLING_MESSAGES.pause}</p>
          <Button onClick={() => void resume()} disabled={resuming}>
            {resuming ? 'Resuming…' : 'Resume membership'}
          </Button>
        </div>
      ) : null}
      {sub.pauseUsed && !paused && !ending ? (
        <p data-testid="billing-pause-used" className="mt-5 flex items-start gap-2 text-muted">
          <PauseCircle aria-hidden className="mt-0.5 size-5 shrink-0" />
          {BILLING_MESSAGES.pauseUsedNote}
        </p>
      ) : null}
      {!ending ? (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {canUpgrade ? (
            <Button onClick={() => openModal(UPGRADE_MODAL)}>
              <span className="inline-flex items-center gap-2">
                <ArrowUpCircle aria-hidden className="size-5" /> Upgrade
              </span>
            </Button>
          ) : null}
          {!paused ? (
            <Button variant="secondary" onClick={() => openModal(sub.provider === 'paypal' ? PAYPAL_CANCEL_MODAL : CARD_CANCEL_MODAL)}>
              {sub.skipPause ? 'Cancel membership' : 'Cancel or pause membership'}
            </Button>
          ) : (
            <Button variant="ghost" onClick={() => openModal(sub.provider === 'paypal' ? PAYPAL_CANCEL_MODAL : CARD_CANCEL_MODAL)}>
              Cancel membership
            </Button>
          )}
        </div>
      ) : null}
      {sub.provider === 'paypal' ? <PaypalCancelModal sub={sub} /> : <CardCancelModal sub={sub} />}
    </Section>
  );
}

function Invoices({ invoices }: { invoices: BillingInvoice[] }) {
  if (invoices.length === 0) return <p className="text-muted">No payments yet.</p>;
  const status = (s: BillingInvoice['status']) => <span className={clsx('font-semibold capitalize', s === 'paid' ? 'text-success' : 'text-danger')}>{s}</span>;
  return (
    <>
      {/* a list on phones */}
      <ul className="flex flex-col divide-y divide-line sm:hidden" aria-label="Invoices">
        {invoices.map((i) => (
          <li key={i.id} className="flex items-start justify-between gap-3 py-3">
            <div>
              <p className="font-semibold">{i.description || 'Membership'}</p>
              <p className="text-sm text-muted">{longDate(i.date)}</p>
            </div>
            <div className="text-right">
              <p className="font-semibold tabular">{dollars(i.amount)}</p>
              <p className="text-sm">{status(i.status)}</p>
            </div>
          </li>
        ))}
      </ul>
      {/* a table from small screens up */}
      <table className="hidden w-full text-left sm:table">
        <caption className="sr-only">Invoices</caption>
        <thead>
          <tr className="border-b border-line text-sm text-muted">
            <th scope="col" className="py-2 pr-4 font-semibold">
              Date
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              Description
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-semibold">
              Amount
            </th>
            <th scope="col" className="py-2 font-semibold">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => (
            <tr key={i.id} className="border-b border-line last:border-0">
              <td className="py-3 pr-4 whitespace-nowrap">{longDate(i.date)}</td>
              <td className="py-3 pr-4">{i.description || 'Membership'}</td>
              <td className="py-3 pr-4 text-right tabular">{dollars(i.amount)}</td>
              <td className="py-3">{status(i.status)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** /account/billing (spec 002 §2): plan, price, next billing date, payment method, invoices and the modals. */
export function BillingOverview() {
  const billing = useBilling();
  const [params] = useSearchParams();
  if (billing.isPending) return <Spinner />;
  if (billing.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
        {errorMessage(billing.error, [])}
      </p>
    );
  const { subscription, lifetime, invoices } = billing.data;
  return (
    <div className="flex flex-col gap-6">
      {params.get('lifetime') === 'failed' || params.get('lifetime') === 'canceled' ? (
        <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
          {params.get('lifetime') === 'failed' ? BILLING_MESSAGES.lifetimeCheckoutFailed : COMMERCE_MESSAGES.paymentCanceled}
        </p>
      ) : null}
      {lifetime ? (
        <Section title="Your membership">
          <p className="flex items-center gap-3 text-lg font-semibold" data-testid="billing-lifetime">
            <InfinityIcon aria-hidden className="size-7 text-accent" /> Lifetime membership: you will never be billed again.
          </p>
        </Section>
      ) : null}
      {subscription && !lifetime ? <PastDueSection sub={subscription} /> : null}
      {subscription && !subscription.ended && !(lifetime && subscription.status === 'canceled') ? <Subscription sub={subscription} lifetime={lifetime} /> : null}
      {!subscription && !lifetime ? (
        <Section title="Your membership">
          <p className="mb-4 text-muted">You do not have a membership yet.</p>
          <a href={JOIN_URL} className={buttonClass('primary')}>
            See membership plans
          </a>
        </Section>
      ) : null}
      {/* mounted with the page, so its answer stays on screen after a lifetime upgrade replaces the subscription */}
      {subscription ? <UpgradeModal sub={subscription} /> : null}
      <Section title="Invoices">
        <Invoices invoices={invoices} />
      </Section>
    </div>
  );
}
