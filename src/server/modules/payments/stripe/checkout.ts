import type { PaymentProvider } from '../provider.ts';
import { refusal, type StripeContext } from './client.ts';
import { mapStripeCheckoutSession, STRIPE_FINANCING_METHODS } from './objects.ts';

/** The hosted checkout: a Stripe Checkout Session (card, or card and financing), read back by its id on return. */

export function checkoutMethods(
  ctx: StripeContext,
): Pick<PaymentProvider, 'createHostedCheckout' | 'getHostedCheckout'> {
  const { sdk, absolute } = ctx;
  return {
    async createHostedCheckout(input) {
      try {
        const success = absolute(input.successUrl);
        // Stripe fills {CHECKOUT_SESSION_ID} in; the braces must stay unencoded
        const successUrl = `${success}${success.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
        const session = await sdk.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: input.amountCents,
                  product_data: { name: input.description.slice(0, 250) },
                },
              },
            ],
            payment_method_types: input.methods === 'financing' ? [...STRIPE_FINANCING_METHODS] : ['card'],
            success_url: successUrl,
            cancel_url: absolute(input.cancelUrl),
            ...(input.email ? { customer_email: input.email } : {}),
            metadata: input.metadata,
            payment_intent_data: { metadata: input.metadata, description: input.description },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { ref: session.id, url: session.url ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async getHostedCheckout(ref) {
      try {
        return mapStripeCheckoutSession(
          await sdk.checkout.sessions.retrieve(ref, { expand: ['payment_intent.payment_method'] }),
        );
      } catch (err) {
        return refusal(err);
      }
    },
  };
}
