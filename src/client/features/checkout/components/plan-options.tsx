import { useId } from 'react';
import clsx from 'clsx';
import { Check } from 'lucide-react';
import type { CheckoutPlan, MembershipPlan } from '#shared/commerce';
import { formatMoney } from '#shared/money';
import { FieldMessage } from '#client/components/ui/field.tsx';
import { invalidProps } from '#client/components/ui/form-feedback.ts';

/** the checkout plan object's prices are dollars: cents, for formatMoney */
export const centsOf = (dollars: number) => Math.round(dollars * 100);

export interface PlanView {
  plan: MembershipPlan;
  title: string;
  price: number;
  crossedOut: number | null;
  tag: string | null;
  per: string;
  note: string;
  trial: string | null;
}

/** The three plans of a checkout, as the page shows them (docs/product/membership-checkout.md). */
export function planViews(p: CheckoutPlan): PlanView[] {
  const trial = (days: number) => (p.has_trial && days > 0 ? `${days}-day free trial` : null);
  const yearlyPerMonthCents = Math.floor(centsOf(p.yearly_price) / 12);
  return [
    {
      plan: 'monthly',
      title: p.monthly_title || 'Monthly',
      price: p.monthly_price,
      crossedOut: p.monthly_crossed_out_price,
      tag: p.monthly_sales_tag,
      per: '/month',
      note: 'Billed every month. Cancel any time.',
      trial: trial(p.monthly_trial_days),
    },
    {
      plan: 'yearly',
      title: 'Yearly',
      price: p.yearly_price,
      crossedOut: p.yearly_crossed_out_price,
      tag: p.yearly_sales_tag,
      per: '/year',
      note: `That's ${formatMoney(yearlyPerMonthCents)} a month, billed once a year.`,
      trial: trial(p.yearly_trial_days),
    },
    {
      plan: 'lifetime',
      title: 'Lifetime',
      price: p.lifetime_price,
      crossedOut: p.lifetime_crossed_out_price,
      tag: p.lifetime_sales_tag,
      per: 'once',
      note: 'One payment. Yours for good, no renewals.',
      trial: null,
    },
  ];
}

/** A radio group of plan cards: big price, crossed-out price, sales tag and trial text. */
export function PlanOptions({
  plan,
  views,
  onChange,
  error,
}: {
  plan: MembershipPlan | '';
  views: PlanView[];
  onChange: (p: MembershipPlan) => void;
  /** the message under the plans when none is chosen */
  error?: string | undefined;
}) {
  const errorId = useId();
  return (
    <fieldset {...invalidProps(error, errorId)}>
      <legend className="mb-3 text-lg font-bold">1. Choose your plan</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {views.map((v) => {
          const selected = plan === v.plan;
          return (
            <label
              key={v.plan}
              data-testid={`plan-${v.plan}`}
              className={clsx(
                'relative flex min-h-11 cursor-pointer flex-col rounded-2xl border-2 bg-surface p-4 transition-colors duration-150 focus-within:ring-2 focus-within:ring-focus sm:p-5',
                selected ? 'border-accent bg-accent-soft/40 shadow-sm' : 'border-line hover:border-accent/60',
              )}
            >
              <input
                type="radio"
                name="plan"
                value={v.plan}
                checked={selected}
                onChange={() => onChange(v.plan)}
                className="sr-only"
              />
              <span className="flex items-start justify-between gap-2">
                <span className="text-base font-bold">{v.title}</span>
                <span
                  aria-hidden
                  className={clsx(
                    'flex size-6 shrink-0 items-center justify-center rounded-full border-2',
                    selected ? 'border-accent bg-accent text-accent-fg' : 'border-line',
                  )}
                >
                  {selected ? <Check className="size-4" strokeWidth={3} /> : null}
                </span>
              </span>
              {v.tag ? (
                <span className="mt-1 w-fit rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-accent-fg">
                  {v.tag}
                </span>
              ) : null}
              <span className="mt-3 flex flex-wrap items-baseline gap-x-2">
                <span className="text-4xl font-extrabold tabular-nums tracking-tight">
                  {formatMoney(centsOf(v.price))}
                </span>
                <span className="text-base text-muted">{v.per}</span>
              </span>
              {v.crossedOut !== null && v.crossedOut > v.price ? (
                <span className="text-base text-muted">
                  <span className="sr-only">Regular price </span>
                  <s className="tabular-nums">{formatMoney(centsOf(v.crossedOut))}</s>
                  <span className="ml-2 font-semibold text-success">
                    Save {formatMoney(centsOf(v.crossedOut) - centsOf(v.price))}
                  </span>
                </span>
              ) : null}
              {v.trial ? (
                <span className="mt-2 w-fit rounded-lg bg-success-soft px-2 py-1 text-sm font-semibold text-success">
                  {v.trial}
                </span>
              ) : null}
              <span className="mt-2 text-sm text-muted">{v.note}</span>
            </label>
          );
        })}
      </div>
      <FieldMessage id={errorId} message={error} />
    </fieldset>
  );
}
