import { useMemo } from 'react';
import clsx from 'clsx';
import { Lock } from 'lucide-react';
import type { PaymentType } from '#shared/commerce';
import type { CheckoutAnswer } from '#shared/checkout';
import { formatMoney } from '#shared/money';
import { FormError } from '#client/components/ui/field.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useCheckout } from '../api/checkout.ts';
import { useMembershipCheckout } from '../use-membership-checkout.ts';
import { AccountFields, PaymentFields, TermsField } from './checkout-fields.tsx';
import { AlreadySubscribed, Summary, Trust } from './order-summary.tsx';
import { centsOf, PlanOptions, planViews } from './plan-options.tsx';

/**
 * The membership checkout (docs/product/membership-checkout.md): plan, payment type, guest fields, card holder, card,
 * terms. A guest registers first, then pays; `loadingPayment` blocks a second submit. Every wrong field
 * shows its message under it, as in every form (components/ui/form-feedback.ts).
 */
export function MembershipCheckout({ slug, search }: { slug: string; search: URLSearchParams }) {
  const query = useCheckout(slug);
  if (query.isPending) return <Spinner label="Loading the checkout" className="py-24" />;
  if (query.isError || !query.data) {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-3xl font-extrabold">This checkout does not exist</h1>
        <p className="mt-3 text-lg text-muted">The link may be old. Our current plans are one tap away.</p>
        <a href="/join" className={clsx(buttonClass(), 'mt-6')}>
          See membership plans
        </a>
      </div>
    );
  }
  return <CheckoutScreen data={query.data} slug={slug} search={search} />;
}

function CheckoutScreen({ data, slug, search }: { data: CheckoutAnswer; slug: string; search: URLSearchParams }) {
  const { plan: p } = data;
  const views = useMemo(() => planViews(p), [p]);
  const { form, set, registered, feedback, paypalError, loadingPayment, card, submit } = useMembershipCheckout(
    data,
    slug,
    search,
  );

  if (data.subscribed) return <AlreadySubscribed plan={p} />;

  const selected = views.find((v) => v.plan === form.plan);

  return (
    <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-10">
      <div className="min-w-0">
        <p className="text-sm font-bold uppercase tracking-widest text-accent-strong">Backbeat membership</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">{p.heading}</h1>
        {p.subheading ? <p className="mt-2 max-w-2xl text-lg text-muted">{p.subheading}</p> : null}

        <form
          ref={feedback.formRef}
          id="checkout-form"
          onSubmit={submit}
          noValidate
          className="mt-6 flex flex-col gap-8"
          aria-busy={loadingPayment}
        >
          <PlanOptions plan={form.plan} views={views} onChange={(v) => set('plan', v)} error={feedback.error('plan')} />
          <AccountFields registered={registered} form={form} set={set} error={feedback.error} />
          <PaymentFields
            step={registered ? 2 : 3}
            form={form}
            set={set}
            error={feedback.error}
            paypalError={paypalError}
            card={card}
            disabled={loadingPayment}
          />
          <TermsField form={form} set={set} error={feedback.error} />

          <div className="flex flex-col gap-3">
            <FormError message={feedback.summary} />
            <Button type="submit" full disabled={loadingPayment} className="min-h-14 text-lg">
              {loadingPayment ? (
                <Spinner label="Processing your payment" className="[&_svg]:text-accent-fg" />
              ) : (
                <Lock aria-hidden className="size-5" />
              )}
              {submitLabel(
                selected?.trial ?? null,
                form.paymentType,
                selected ? formatMoney(centsOf(selected.price)) : '',
              )}
            </Button>
            <p className="flex items-center justify-center gap-1.5 text-sm text-muted">
              <Lock aria-hidden className="size-4" /> Secure checkout. We never store your card number.
            </p>
          </div>
        </form>
      </div>

      <aside className="flex flex-col gap-4 lg:sticky lg:top-24 lg:self-start" aria-label="Your order">
        <Summary plan={p} views={views} current={form.plan} />
        <Trust />
      </aside>
    </div>
  );
}

const submitLabel = (trial: string | null, type: PaymentType, price: string) =>
  type === 'paypal' ? 'Continue to PayPal' : trial ? `Start my ${trial}` : `Pay ${price} and join`;
