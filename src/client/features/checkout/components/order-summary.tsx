import { CalendarCheck, Headphones, ShieldCheck, Sparkles } from 'lucide-react';
import { COMMERCE_MESSAGES as M, type CheckoutPlan, type MembershipPlan } from '#shared/commerce';
import { formatMoney } from '#shared/money';
import { buttonClass } from '#client/components/ui/button.tsx';
import { centsOf, type PlanView } from './plan-options.tsx';

/** The chosen plan, what is due today and, after a trial, what is due then. */
export function Summary({
  plan,
  views,
  current,
}: {
  plan: CheckoutPlan;
  views: PlanView[];
  current: MembershipPlan | '';
}) {
  const v = views.find((x) => x.plan === current);
  if (!v) return null;
  const trialDays = v.trial ? (v.plan === 'monthly' ? plan.monthly_trial_days : plan.yearly_trial_days) : 0;
  return (
    <section className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
      <h2 className="text-sm font-bold uppercase tracking-widest text-muted">Your order</h2>
      <div className="mt-3 flex items-baseline justify-between gap-3">
        {/* a plan named at length wraps beside the price; the price stays whole on its line */}
        <span className="min-w-0 text-lg font-bold">{v.title} membership</span>
        <span className="shrink-0 whitespace-nowrap text-2xl font-extrabold tabular-nums">
          {formatMoney(centsOf(v.price))}
        </span>
      </div>
      <p className="mt-1 text-base text-muted">{v.note}</p>
      <dl className="mt-4 flex flex-col gap-2 border-t border-line pt-4 text-base">
        <div className="flex justify-between gap-3">
          <dt className="text-muted">Due today</dt>
          <dd className="font-bold tabular-nums">{trialDays > 0 ? formatMoney(0) : formatMoney(centsOf(v.price))}</dd>
        </div>
        {trialDays > 0 ? (
          <div className="flex justify-between gap-3">
            <dt className="text-muted">After your {trialDays}-day trial</dt>
            <dd className="font-semibold tabular-nums">
              {formatMoney(centsOf(v.price))}
              {v.per}
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

export function Trust() {
  const items = [
    { icon: Sparkles, text: 'Every course, lesson and practice tool' },
    { icon: Headphones, text: 'Forums and live shows with our teachers' },
    { icon: CalendarCheck, text: 'Cancel or pause any time from Billing' },
    { icon: ShieldCheck, text: 'Payments handled by Stripe and PayPal' },
  ];
  return (
    <ul className="flex flex-col gap-3 rounded-2xl bg-surface-2 p-5 text-base">
      {items.map(({ icon: Icon, text }) => (
        <li key={text} className="flex items-start gap-3">
          <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" />
          {text}
        </li>
      ))}
    </ul>
  );
}

export function AlreadySubscribed({ plan }: { plan: CheckoutPlan }) {
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <ShieldCheck aria-hidden className="mx-auto size-14 text-success" />
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{plan.heading}</h1>
      <p role="status" className="mt-4 rounded-xl bg-success-soft px-4 py-3 text-lg">
        {M.alreadySubscribed}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <a href="/account/billing" className={buttonClass()}>
          Manage billing
        </a>
        <a href="/dashboard" className={buttonClass('secondary')}>
          Go to your dashboard
        </a>
      </div>
    </div>
  );
}
