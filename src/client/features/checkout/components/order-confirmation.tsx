import clsx from 'clsx';
import { BookOpen, CircleCheckBig, Clock, LayoutDashboard } from 'lucide-react';
import type { OrderSummary } from '#shared/checkout';
import { JOIN_URL } from '#shared/commerce';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useOrder } from '../api/order.ts';
import { centsOf } from './plan-options.tsx';
import { formatMoney } from '#shared/money';
import { formatWhen } from '#client/lib/dates.ts';

const PLAN_NAMES: Record<string, string> = {
  monthly: 'Monthly membership',
  yearly: 'Yearly membership',
  lifetime: 'Lifetime membership',
};
const date = (iso: string) => formatWhen(iso, 'en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** /order: "You're in!", with what was bought (the destination after the membership checkout). */
export function OrderConfirmation({ orderId }: { orderId: string | null }) {
  const query = useOrder(orderId);
  if (query.isPending) return <Spinner label="Loading your order" className="py-24" />;
  const order = query.data?.order ?? null;
  if (!order) return <NothingBought />;
  if (order.status !== 'paid') return <NotPaid order={order} />;
  return <Paid order={order} />;
}

function Paid({ order }: { order: OrderSummary }) {
  const trialEnds = order.trial_ends_at && new Date(order.trial_ends_at) > new Date() ? order.trial_ends_at : null;
  const rows: [string, string][] = [
    order.course ? ['Course', order.course.title] : ['Plan', PLAN_NAMES[order.plan ?? ''] ?? 'Membership'],
    [
      'Amount',
      `${formatMoney(centsOf(order.amount))}${order.plan === 'monthly' ? ' a month' : order.plan === 'yearly' ? ' a year' : ', paid once'}`,
    ],
  ];
  if (trialEnds) rows.push(['Free trial ends', date(trialEnds)]);
  if (order.lifetime) rows.push(['Renews', 'Never: it is yours for good']);
  else if (order.next_billing_date)
    rows.push([trialEnds ? 'First payment' : 'Next billing date', date(order.next_billing_date)]);
  if (order.payment_method) rows.push(['Payment method', order.payment_method]);
  rows.push(['Order number', `#${order.id}`]);

  return (
    <div className="mx-auto max-w-2xl">
      <div className="rounded-3xl border border-line bg-surface p-6 text-center shadow-sm sm:p-10">
        <CircleCheckBig aria-hidden className="mx-auto size-16 text-success" />
        <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-5xl">You&apos;re in!</h1>
        <p className="mx-auto mt-3 max-w-md text-lg text-muted">
          {order.course
            ? `${order.course.title} is yours. Every lesson of the course is open to you now.`
            : 'Welcome to the Backbeat Academy. Every course, the forums, live shows and the practice tools are open to you now.'}
        </p>
        <dl
          className="mx-auto mt-8 flex max-w-md flex-col divide-y divide-line rounded-2xl border border-line text-left text-base"
          data-testid="order-details"
        >
          {rows.map(([k, v]) => (
            <div key={k} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-3">
              <dt className="text-muted">{k}</dt>
              <dd className="font-semibold tabular-nums">{v}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-8 grid gap-3 sm:grid-cols-2">
          <a href="/dashboard" className={clsx(buttonClass('primary', true), 'min-h-12')}>
            <LayoutDashboard aria-hidden className="size-5" /> Go to your dashboard
          </a>
          <a href={order.course?.url ?? '/courses'} className={clsx(buttonClass('secondary', true), 'min-h-12')}>
            <BookOpen aria-hidden className="size-5" /> {order.course ? 'Open the course' : 'Start a course'}
          </a>
        </div>
        <p className="mt-6 text-sm text-muted">
          A receipt is on your{' '}
          <a href="/account/billing" className="font-semibold text-accent-strong underline underline-offset-2">
            Billing page
          </a>
          .
        </p>
      </div>
    </div>
  );
}

function NotPaid({ order }: { order: OrderSummary }) {
  const failed = order.status === 'failed' || order.status === 'canceled';
  return (
    <div className="mx-auto max-w-xl rounded-3xl border border-line bg-surface p-6 text-center sm:p-10">
      <Clock aria-hidden className="mx-auto size-14 text-warning" />
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">
        {failed ? 'This order was not completed' : 'Your payment is not finished yet'}
      </h1>
      <p className="mt-3 text-lg text-muted">
        {failed
          ? 'You have not been charged for it.'
          : 'We have not received the payment for this order. You can finish it from the checkout.'}
      </p>
      <a href={JOIN_URL} className={clsx(buttonClass(), 'mt-6')}>
        Back to the checkout
      </a>
    </div>
  );
}

function NothingBought() {
  return (
    <div className="mx-auto max-w-xl rounded-3xl border border-line bg-surface p-6 text-center sm:p-10">
      <h1 className="text-3xl font-extrabold tracking-tight">No membership yet</h1>
      <p className="mt-3 text-lg text-muted">
        You have not bought a membership. Pick a plan and you are playing along in two minutes.
      </p>
      <a href={JOIN_URL} className={clsx(buttonClass(), 'mt-6 min-h-12')}>
        See membership plans
      </a>
    </div>
  );
}
