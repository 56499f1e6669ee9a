import { useId } from 'react';
import clsx from 'clsx';
import { CreditCard, Lock } from 'lucide-react';
import { LEVEL_TITLES, type PaypalOutcome, type Tier } from '#shared/products';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { CardForm } from '#client/components/payments/card-form.tsx';
import { useProductPayment } from '../use-product-payment.ts';
import { StepHeading } from './step-heading.tsx';

/** Step 2: card or PayPal, and the button that pays. */
export function PaymentStep(props: {
  tier: Tier;
  affiliate: string | null;
  paypalOutcome: PaypalOutcome | null;
  holder: string;
}) {
  const { tier } = props;
  const { type, setType, holder, changeHolder, feedback, paypalError, loadingPayment, card, submit } =
    useProductPayment(props);
  const cardErrorId = useId();

  return (
    <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="payment-step">
      <div id="payment-step">
        <StepHeading n={2} title="Payment" />
      </div>
      <form ref={feedback.formRef} className="mt-5 flex flex-col gap-5" onSubmit={submit} noValidate>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">Pay with</legend>
          <div className="grid grid-cols-2 gap-3">
            {(['card', 'paypal'] as const).map((t) => (
              <label
                key={t}
                className={clsx(
                  'flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border px-4 text-base font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent/40',
                  type === t
                    ? 'border-accent bg-accent-soft text-accent-strong'
                    : 'border-line bg-surface hover:bg-surface-2',
                )}
              >
                <input
                  type="radio"
                  name="payment_type"
                  value={t}
                  checked={type === t}
                  onChange={() => setType(t)}
                  className="sr-only"
                />
                {t === 'card' ? <CreditCard aria-hidden className="size-5" /> : null}
                {t === 'card' ? 'Card' : 'PayPal'}
              </label>
            ))}
          </div>
          {paypalError ? (
            <p role="alert" className="mt-2 text-sm font-medium text-danger" data-testid="paypal-error">
              {paypalError}
            </p>
          ) : null}
        </fieldset>
        {type === 'card' ? (
          <>
            <Field
              label="Card holder name"
              name="card_holder"
              autoComplete="cc-name"
              value={holder}
              error={feedback.error('card_holder')}
              onChange={(e) => changeHolder(e.target.value)}
            />
            <div>
              <CardForm
                ref={card.ref}
                disabled={loadingPayment}
                errorId={feedback.errors.card ? cardErrorId : undefined}
              />
              {feedback.errors.card ? (
                <p id={cardErrorId} className="mt-1.5 text-sm font-medium text-danger" data-testid="card-error">
                  {feedback.errors.card}
                </p>
              ) : null}
            </div>
          </>
        ) : (
          <p className="text-base text-muted">You will approve the payment with PayPal and come straight back here.</p>
        )}
        <FormError message={feedback.summary} />
        <Button
          type="submit"
          full
          disabled={loadingPayment}
          aria-busy={loadingPayment || undefined}
          className="min-h-12 text-lg"
        >
          <Lock aria-hidden className="size-5" />
          {loadingPayment
            ? 'Processing…'
            : type === 'card'
              ? `Pay ${LEVEL_TITLES[tier.level]} now`
              : 'Continue to PayPal'}
        </Button>
      </form>
    </section>
  );
}
