import { useState } from 'react';
import clsx from 'clsx';
import { CircleCheckBig } from 'lucide-react';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { LEVEL_FEATURES, LEVEL_TITLES, PRODUCT_MESSAGES, type PaypalOutcome, type Tier } from '#shared/products';
import { pageConfig } from '#client/lib/page-config.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { AccountStep, LockedPayment } from './account-step.tsx';
import { PaymentStep } from './payment-step.tsx';
import { SpotsLeft, TierPrice } from './tier-picker.tsx';

interface Props {
  tier: Tier;
  /** "Double Kick Mastery" or the course title */
  productTitle: string;
  owned: boolean;
  /** where "Start the course" goes once owned */
  courseUrl: string | null;
  affiliate: string | null;
  /** this checkout's own address (the sign-in link returns here) */
  checkoutUrl: string;
  /** the registration flag (double kick: dkm_signup) */
  signupFlag: 'dkm_signup' | null;
  paypalOutcome: PaypalOutcome | null;
}

/**
 * The checkout of a double-kick or course tier (docs/product/course-products.md): a visitor registers first (or signs
 * in), then pays by card or PayPal. The server prices the order; the key makes a double submit one.
 */
export function ProductCheckout(props: Props) {
  const config = pageConfig();
  const [account, setAccount] = useState(
    config.authId ? { name: config.authName ?? '', email: config.authEmail ?? '' } : null,
  );
  const { tier } = props;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <div className="flex flex-col gap-6">
        {props.owned ? (
          <Owned courseUrl={props.courseUrl} />
        ) : tier.sold_out ? (
          <section className="rounded-2xl border border-line bg-surface p-6">
            <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 text-base font-semibold text-danger">
              {COMMERCE_MESSAGES.soldOut}
            </p>
          </section>
        ) : (
          <>
            <AccountStep
              account={account}
              onRegistered={setAccount}
              checkoutUrl={props.checkoutUrl}
              signupFlag={props.signupFlag}
            />
            {account ? <PaymentStep {...props} holder={account.name} /> : <LockedPayment />}
          </>
        )}
      </div>
      <Summary {...props} />
    </div>
  );
}

function Owned({ courseUrl }: { courseUrl: string | null }) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-6 text-center">
      <CircleCheckBig aria-hidden className="mx-auto size-12 text-success" />
      <p role="status" className="mt-3 text-lg font-semibold">
        {PRODUCT_MESSAGES.alreadyOwned}
      </p>
      {courseUrl ? (
        <a href={courseUrl} className={clsx(buttonClass(), 'mt-5 min-h-12')}>
          Go to the course
        </a>
      ) : null}
    </section>
  );
}

function Summary({ tier, productTitle, affiliate }: Props) {
  return (
    <aside
      className="order-first rounded-2xl border border-line bg-surface p-5 sm:p-6 lg:sticky lg:top-24 lg:order-none"
      aria-label="Order summary"
    >
      <p className="text-sm font-semibold uppercase tracking-wide text-muted">Your order</p>
      <h2 className="mt-1 text-xl font-bold">
        {productTitle}: {LEVEL_TITLES[tier.level]}
      </h2>
      <div className="mt-3">
        <TierPrice tier={tier} size="md" />
      </div>
      <div className="mt-2">
        <SpotsLeft tier={tier} />
      </div>
      <ul className="mt-4 flex flex-col gap-1.5 text-base text-muted">
        {LEVEL_FEATURES[tier.level].map((f) => (
          <li key={f}>• {f}</li>
        ))}
      </ul>
      {affiliate ? <p className="mt-4 text-sm text-muted">Referred by {affiliate}</p> : null}
    </aside>
  );
}
