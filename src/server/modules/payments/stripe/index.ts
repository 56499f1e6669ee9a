import { ProviderError, type PaymentProvider } from '../provider.ts';
import { cardMethods } from './cards.ts';
import { checkoutMethods } from './checkout.ts';
import { createStripeContext, type StripeOptions } from './client.ts';
import { recoveryMethods } from './recovery.ts';
import { refundMethods } from './refunds.ts';
import { subscriptionMethods } from './subscriptions.ts';
import { webhookMethods } from './webhooks.ts';

/**
 * The Stripe card provider on the official SDK. Cards are collected by Stripe Elements on
 * the page (a SetupIntent per checkout), then charged (PaymentIntent) or subscribed (Subscription
 * with inline price_data on one Product per subscription). Every creating call carries an
 * idempotency key. A card pause with a fee switches the price to the fee (metadata remembers the
 * price to resume to); a free pause uses pause_collection.
 *
 * STRIPE_API_BASE (tests) points the SDK at another host: http://127.0.0.1:PORT.
 *
 * Its parts, by use case: client.ts (the SDK and its errors), objects.ts (Stripe's objects mapped to
 * ours), cards.ts, checkout.ts (hosted checkout), subscriptions.ts, refunds.ts, recovery.ts (after a
 * failed payment) and webhooks.ts.
 */

export { cardLabel, mapStripeCheckoutSession, mapStripeSubscription, STRIPE_FINANCING_METHODS } from './objects.ts';
export { mapStripeEvent } from './webhooks.ts';

export function createStripeProvider(opts: StripeOptions): PaymentProvider {
  const ctx = createStripeContext(opts);
  return {
    name: 'stripe',
    ...cardMethods(ctx),
    ...checkoutMethods(ctx),

    async createPaypalOrder() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },
    async capturePaypalOrder() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },
    async createPaypalSubscription() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },

    ...subscriptionMethods(ctx),
    ...refundMethods(ctx),
    ...recoveryMethods(ctx),
    ...webhookMethods(ctx),
  };
}
