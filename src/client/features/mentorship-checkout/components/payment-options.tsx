import clsx from 'clsx';
import { Check } from 'lucide-react';
import {
  MENTORSHIP_INSTALMENT_PLANS,
  MENTORSHIP_LIST_PRICE,
  MENTORSHIP_PAY_IN_FULL_DISCOUNT,
  onetimeOptionPrice,
  type MentorshipCheckoutOption,
} from '#shared/mentorship-checkout';
import { formatMoney } from '#shared/money';

export interface OptionView {
  option: MentorshipCheckoutOption;
  title: string;
  /** the big number */
  price: string;
  /** e.g. "3 × $1,200.00" */
  per: string | null;
  crossedOut: string | null;
  tag: string | null;
  note: string;
  method: 'card' | 'paypal';
}

/** How an option reads (docs/product/mentorship.md): pay in full saves 700 against 3,900; 3 × 1,200; 6 × 650. */
export function optionView(option: MentorshipCheckoutOption): OptionView {
  if (option === '3' || option === '6') {
    const p = MENTORSHIP_INSTALMENT_PLANS[option];
    return {
      option,
      title: `${p.instalments} monthly payments`,
      price: formatMoney(p.amountCents),
      per: `${p.instalments} × ${formatMoney(p.amountCents)}`,
      crossedOut: null,
      tag: null,
      note: `${formatMoney(p.amountCents)} today, then ${formatMoney(p.amountCents)} a month for ${p.instalments - 1} more months. Total ${formatMoney(p.totalCents)}, paid with PayPal.`,
      method: 'paypal',
    };
  }
  const dollars = onetimeOptionPrice[option];
  const cents = dollars * 100;
  if (option === 'onetime') {
    return {
      option,
      title: 'Pay in full',
      price: formatMoney(cents),
      per: null,
      crossedOut: formatMoney(MENTORSHIP_LIST_PRICE * 100),
      tag: `Save ${formatMoney(MENTORSHIP_PAY_IN_FULL_DISCOUNT * 100)}`,
      note: `One payment by card. You save ${formatMoney(MENTORSHIP_PAY_IN_FULL_DISCOUNT * 100)} against the ${formatMoney(MENTORSHIP_LIST_PRICE * 100)} list price.`,
      method: 'card',
    };
  }
  return {
    option,
    title: 'Pay in full',
    price: formatMoney(cents),
    per: null,
    crossedOut: null,
    tag: option === 'onetime1600' || option === 'onetime2600' ? 'Special price' : null,
    note: 'One payment by card. Yours for the whole programme.',
    method: 'card',
  };
}

/** A radio group of payment option cards. */
export function PaymentOptions({
  options,
  value,
  onChange,
  disabled,
}: {
  options: MentorshipCheckoutOption[];
  value: MentorshipCheckoutOption;
  onChange: (o: MentorshipCheckoutOption) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend className="sr-only">Payment options</legend>
      <div role="radiogroup" aria-label="Payment option" className="grid gap-3">
        {options.map((o) => {
          const v = optionView(o);
          const selected = o === value;
          return (
            <label
              key={o}
              data-testid={`option-${o}`}
              className={clsx(
                'relative flex cursor-pointer items-start gap-4 rounded-2xl border-2 bg-surface p-4 focus-within:ring-2 focus-within:ring-focus sm:p-5',
                selected ? 'border-accent bg-accent-soft/40' : 'border-line hover:border-accent/60',
              )}
            >
              <input
                type="radio"
                name="option"
                value={o}
                checked={selected}
                onChange={() => onChange(o)}
                className="sr-only"
              />
              <span
                aria-hidden
                className={clsx(
                  'mt-1 grid size-6 shrink-0 place-items-center rounded-full border-2',
                  selected ? 'border-accent bg-accent text-accent-fg' : 'border-line',
                )}
              >
                {selected ? <Check className="size-4" /> : null}
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="text-lg font-bold">{v.title}</span>
                  {v.tag ? (
                    <span className="rounded-full bg-success-soft px-2.5 py-0.5 text-sm font-semibold text-success">
                      {v.tag}
                    </span>
                  ) : null}
                </span>
                <span className="text-base text-muted">{v.note}</span>
              </span>
              <span className="flex shrink-0 flex-col items-end text-right">
                {v.crossedOut ? <s className="text-base text-muted">{v.crossedOut}</s> : null}
                <span className="text-2xl font-extrabold tabular-nums">{v.per ?? v.price}</span>
                <span className="text-sm text-muted">{v.method === 'paypal' ? 'PayPal' : 'Card'}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
