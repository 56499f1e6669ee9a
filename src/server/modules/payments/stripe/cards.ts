import { COMMERCE_MESSAGES } from '#shared/commerce';
import type { ChargeResult, PaymentProvider } from '../provider.ts';
import { isCardError, paymentMethod, refusal, type StripeContext } from './client.ts';
import { cardLabel, idOf } from './objects.ts';

/** Cards: a SetupIntent (with its customer) the page's Stripe Elements confirm, and a one-time charge (PaymentIntent). */

export function cardMethods(ctx: StripeContext): Pick<PaymentProvider, 'createCardSetup' | 'chargeCard'> {
  const { sdk } = ctx;
  return {
    async createCardSetup(input) {
      try {
        const customer = await sdk.customers.create(
          { email: input.email, name: input.name, metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:customer` },
        );
        const intent = await sdk.setupIntents.create(
          { customer: customer.id, usage: 'off_session', payment_method_types: ['card'], metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:setup` },
        );
        return { clientSecret: intent.client_secret ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async chargeCard(input): Promise<ChargeResult> {
      const pm = await paymentMethod(ctx, input.paymentMethod);
      const label = cardLabel(pm.card);
      try {
        const intent = await sdk.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: 'usd',
            customer: idOf(pm.customer) ?? undefined,
            payment_method: input.paymentMethod,
            confirm: true,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            description: input.description,
            receipt_email: input.email,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { ref: intent.id, status: 'succeeded', paymentMethodLabel: label };
        if (intent.status === 'requires_action')
          return {
            ref: intent.id,
            status: 'requires_action',
            nextAction: { clientSecret: intent.client_secret ?? '' },
            paymentMethodLabel: label,
          };
        return {
          ref: intent.id,
          status: 'failed',
          failureMessage: intent.last_payment_error?.message ?? COMMERCE_MESSAGES.cardDeclined,
          paymentMethodLabel: label,
        };
      } catch (err) {
        if (isCardError(err)) {
          const pi = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
          return {
            ref: pi?.id ?? `failed_${input.idempotencyKey}`,
            status: 'failed',
            failureMessage: err.message || COMMERCE_MESSAGES.cardDeclined,
            paymentMethodLabel: label,
          };
        }
        return refusal(err);
      }
    },
  };
}
