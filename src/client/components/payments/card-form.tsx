/**
 * The card element of every checkout.
 *
 * Usage:
 *   const card = useCardForm();
 *   <CardForm ref={card.ref} />                      // the card number / expiry / CVC fields
 *   const r = await card.confirmSetup(clientSecret, { name: cardHolderName });
 *   if ('error' in r) showUnderTheCardElement(r.error);   // the provider's words
 *   else post the checkout with stripeToken = r.paymentMethod
 *
 * `clientSecret` is the SetupIntent secret the server made (GET /order/stripe-client-secret); fetch a
 * new one after a failure. The card holder name is the caller's own field.
 *
 * With the sandbox provider (page config `payments.card === 'sandbox'`) it renders the sandbox's own
 * fields (sandbox-card-fields.tsx, whose code only such a server loads) and confirms them at
 * POST /sandbox/setup-intents/confirm. Nothing is loaded from outside. With `stripe` it loads Stripe.js
 * (@stripe/stripe-js, publishable key from the page config) and mounts Stripe Elements' card element;
 * Stripe runs its own authentication.
 */
import { forwardRef, Suspense, useCallback, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { pageConfig } from '#client/lib/page-config.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SandboxCardFields } from './sandbox-card.ts';

export type ConfirmResult = { paymentMethod: string } | { error: string };
export interface CardFormHandle {
  confirmSetup(clientSecret: string, opts: { name: string }): Promise<ConfirmResult>;
}

const NOT_READY = 'The card form is still loading. Please try again in a moment.';

/** a ref for <CardForm> and its confirmSetup */
export function useCardForm() {
  const ref = useRef<CardFormHandle>(null);
  const confirmSetup = useCallback(
    (clientSecret: string, opts: { name: string }): Promise<ConfirmResult> =>
      ref.current ? ref.current.confirmSetup(clientSecret, opts) : Promise.resolve({ error: NOT_READY }),
    [],
  );
  return { ref, confirmSetup };
}

export interface CardFormProps {
  disabled?: boolean;
  /** "Card details" */
  label?: string;
  /** the id of the caller's error text about the card: the fields point to it and read as invalid */
  errorId?: string | undefined;
}

export const CardForm = forwardRef<CardFormHandle, CardFormProps>(function CardForm(props, ref) {
  const { payments } = pageConfig();
  return payments.card === 'stripe' && payments.stripePublishableKey ? (
    <StripeCardForm ref={ref} publishableKey={payments.stripePublishableKey} {...props} />
  ) : (
    // the sandbox's fields are their own module; a checkout page loads them with its own code
    // (router.tsx's checkoutPage), so they are there at the first render
    <Suspense fallback={<CardFieldsLoading label={props.label} />}>
      <SandboxCardFields ref={ref} {...props} />
    </Suspense>
  );
});

/** The card fields' place while their code loads: their label, and their height, so nothing below moves. */
function CardFieldsLoading({ label = 'Card details' }: { label?: string | undefined }) {
  return (
    <div className="flex min-h-56 flex-col gap-3">
      <span className="text-sm font-semibold">{label}</span>
      <Spinner label="Loading the card form" />
    </div>
  );
}

// ---------------------------------------------------------------- Stripe Elements

const StripeCardForm = forwardRef<CardFormHandle, CardFormProps & { publishableKey: string }>(function StripeCardForm(
  { publishableKey, disabled, label = 'Card details', errorId },
  ref,
) {
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<Stripe | null>(null);
  const cardRef = useRef<StripeCardElement | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const labelId = useId();

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const { loadStripe } = await import('@stripe/stripe-js');
        const stripe = await loadStripe(publishableKey);
        if (cancelled || !stripe || !mountRef.current) return;
        const styles = getComputedStyle(document.documentElement);
        const card = stripe.elements().create('card', {
          hidePostalCode: true,
          style: {
            base: {
              fontSize: '16px',
              color: styles.getPropertyValue('color') || undefined,
              '::placeholder': { color: '#8a8f98' },
            },
          },
        });
        card.mount(mountRef.current);
        stripeRef.current = stripe;
        cardRef.current = card;
      } catch {
        if (!cancelled) setLoadError('The card form could not be loaded. Please refresh the page.');
      }
    })();
    return () => {
      cancelled = true;
      cardRef.current?.destroy();
      cardRef.current = null;
    };
  }, [publishableKey]);

  useEffect(() => {
    cardRef.current?.update({ disabled: !!disabled });
  }, [disabled]);

  useImperativeHandle(ref, () => ({
    async confirmSetup(clientSecret, { name }) {
      const stripe = stripeRef.current;
      const card = cardRef.current;
      if (!stripe || !card) return { error: loadError ?? NOT_READY };
      const r = await stripe.confirmCardSetup(clientSecret, { payment_method: { card, billing_details: { name } } });
      if (r.error) return { error: r.error.message ?? 'Your card could not be set up.' };
      const pm = r.setupIntent.payment_method;
      return { paymentMethod: typeof pm === 'string' ? pm : (pm?.id ?? '') };
    },
  }));

  return (
    <div className="flex flex-col gap-1.5" data-testid="card-form">
      <span id={labelId} className="text-sm font-semibold">
        {label}
      </span>
      <div
        ref={mountRef}
        aria-labelledby={labelId}
        aria-describedby={errorId}
        className="flex min-h-12 flex-col justify-center rounded-xl border border-line bg-surface px-4"
      />
      {loadError ? <p className="text-sm font-medium text-danger">{loadError}</p> : null}
    </div>
  );
});
