import { ProviderError, type PaymentProvider } from '../provider.ts';
import type { PaypalContext, PaypalOptions } from './api.ts';
import { checkoutMethods } from './checkout.ts';
import { refundMethods } from './refunds.ts';
import { subscriptionMethods } from './subscriptions.ts';
import { webhookMethods } from './webhooks.ts';

/**
 * The PayPal provider on PayPal's REST API with fetch: an OAuth client-credentials token,
 * Orders v2 for one-time payments (create, approve at PayPal, capture on return) and Subscriptions
 * v1 for plans (one catalog product and billing plan per subscription, then the subscription the
 * buyer approves). Every creating call sends PayPal-Request-Id (PayPal's idempotency key). Webhooks
 * are checked with /v1/notifications/verify-webhook-signature.
 *
 * PAYPAL_API_BASE: https://api-m.sandbox.paypal.com (PayPal's sandbox), https://api-m.paypal.com
 * (live), or a local server in tests.
 *
 * Its parts, by use case: api.ts (the token, calls, PayPal's objects mapped to ours), checkout.ts
 * (orders and subscriptions to approve), subscriptions.ts, refunds.ts and webhooks.ts.
 */

export { mapPaypalSubscription } from './api.ts';
export { mapPaypalEvent } from './webhooks.ts';

export function createPaypalProvider(opts: PaypalOptions): PaymentProvider {
  const ctx: PaypalContext = { opts, token: null };
  const unsupported = async (): Promise<never> => {
    throw new ProviderError('unsupported', 'Cards are not taken through PayPal here.');
  };
  return {
    name: 'paypal',
    createCardSetup: unsupported,
    chargeCard: unsupported,
    subscribeCard: unsupported,
    /** hosted card checkout is the card provider's */
    async createHostedCheckout() {
      throw new ProviderError('unsupported', 'A hosted card checkout is not offered through PayPal.');
    },
    async getHostedCheckout() {
      throw new ProviderError('unsupported', 'A hosted card checkout is not offered through PayPal.');
    },
    ...checkoutMethods(ctx),
    ...subscriptionMethods(ctx),
    ...refundMethods(ctx),
    createSubscriptionCardSetup: unsupported,
    updatePaymentMethod: unsupported,
    ...webhookMethods(ctx),
  };
}
