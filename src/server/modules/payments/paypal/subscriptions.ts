import { ProviderError, type PaymentProvider, type RetryResult } from '../provider.ts';
import { call, cents, getSubscription, type PaypalContext, type PaypalSubscription } from './api.ts';

/**
 * A PayPal subscription after approval: read, paused (suspended), resumed, cancelled; its
 * outstanding balance collected ("Pay now"); where the subscriber fixes the funding source.
 */

async function subscriptionAction(
  ctx: PaypalContext,
  ref: string,
  action: 'suspend' | 'activate' | 'cancel',
  reason: string,
  requestId: string,
) {
  await call(ctx, 'POST', `/v1/billing/subscriptions/${encodeURIComponent(ref)}/${action}`, { reason }, requestId);
  return getSubscription(ctx, ref);
}

export function subscriptionMethods(
  ctx: PaypalContext,
): Pick<
  PaymentProvider,
  'getSubscription' | 'applyDiscount' | 'changePlan' | 'pause' | 'resume' | 'cancel' | 'retryPayment' | 'fundingFixUrl'
> {
  const { opts } = ctx;
  return {
    getSubscription: (ref) => getSubscription(ctx, ref),
    async applyDiscount() {
      throw new ProviderError('unsupported', 'PayPal subscriptions cannot be discounted here.');
    },
    async changePlan() {
      throw new ProviderError('unsupported', 'PayPal subscriptions cannot change plan here.');
    },
    /** PayPal's pause is free (docs/product/retention.md): the fee is ignored */
    pause: (ref, _opts, key) => subscriptionAction(ctx, ref, 'suspend', 'Paused by the member', key),
    resume: (ref, key) => subscriptionAction(ctx, ref, 'activate', 'Resumed by the member', key),
    /** PayPal cancels at once; the ledger keeps access to the paid period's end */
    cancel: (ref, _opts, key) => subscriptionAction(ctx, ref, 'cancel', 'Cancelled by the member', key),

    /** collect the subscription's outstanding balance now, from the funding source the subscriber chose at PayPal */
    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      const sub = await call<PaypalSubscription>(
        ctx,
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(ref)}?fields=plan`,
      );
      const outstanding = sub.billing_info?.outstanding_balance;
      let failureMessage: string | undefined;
      if (outstanding && cents(outstanding.value) > 0) {
        try {
          await call(
            ctx,
            'POST',
            `/v1/billing/subscriptions/${encodeURIComponent(ref)}/capture`,
            {
              note: 'Membership payment due',
              capture_type: 'OUTSTANDING_BALANCE',
              amount: { currency_code: outstanding.currency_code ?? 'USD', value: outstanding.value },
            },
            idempotencyKey,
          );
        } catch (err) {
          if (!(err instanceof ProviderError) || err.code !== 'card_declined') throw err;
          failureMessage = err.message;
        }
      }
      const state = await getSubscription(ctx, ref);
      return failureMessage ? { paid: false, failureMessage, state } : { paid: true, state };
    },

    /**
     * PayPal keeps the subscriber's funding source: they change it on PayPal's automatic payments
     * page (the sandbox's or the live site's, as the API base is), then come back and pay.
     */
    async fundingFixUrl() {
      return /sandbox/.test(opts.apiBase)
        ? 'https://www.sandbox.paypal.com/myaccount/autopay/'
        : 'https://www.paypal.com/myaccount/autopay/';
    },
  };
}
