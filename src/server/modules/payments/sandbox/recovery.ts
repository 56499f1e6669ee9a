import { COMMERCE_MESSAGES } from '#shared/commerce';
import { ProviderError, type PaymentProvider, type RetryResult } from '../provider.ts';
import { createCardSetup } from './cards.ts';
import { emitSubscription, toState } from './events.ts';
import { collect } from './renewals.ts';
import {
  get,
  must,
  once,
  putSubscription,
  subscription,
  type PaymentMethodData,
  type SandboxContext,
} from './store.ts';

/**
 * Recovery from a failed payment (docs/product/dunning.md): a new card for a card subscription, the
 * member's "Pay now", and where a PayPal subscriber fixes their funding (the approval page, which
 * collects what is due).
 */

export function recoveryMethods(
  ctx: SandboxContext,
): Pick<PaymentProvider, 'createSubscriptionCardSetup' | 'updatePaymentMethod' | 'retryPayment' | 'fundingFixUrl'> {
  const { db } = ctx;
  return {
    async createSubscriptionCardSetup(ref, input) {
      const s = await subscription(db, ref);
      if (s.kind !== 'card') throw new ProviderError('unsupported', 'This membership is paid through PayPal.');
      return createCardSetup(db, { email: '', name: '', ...input });
    },

    async updatePaymentMethod(ref, paymentMethod) {
      const s = await subscription(db, ref);
      if (s.kind !== 'card') throw new ProviderError('unsupported', 'This membership is paid through PayPal.');
      if (s.status === 'canceled') throw new ProviderError('canceled', 'This subscription has been canceled.');
      const pm = await must<PaymentMethodData>(db, paymentMethod, 'payment_method');
      if (!pm.usable)
        throw new ProviderError('authentication_required', 'This card needs authentication before it can be used.');
      s.paymentMethod = paymentMethod;
      s.label = `${pm.brand} ending ${pm.last4}`;
      await putSubscription(db, ref, s);
      return emitSubscription(ctx, ref, s);
    },

    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      // one attempt per key, whatever the double clicks
      const attempt = await once(db, `retry:${idempotencyKey}`, async () => {
        const s = await subscription(db, ref);
        if (s.status !== 'past_due' || !s.openInvoice) return 'nothing-due';
        return (await collect(ctx, ref, s, false)).charge;
      });
      const s = await subscription(db, ref);
      const state = await toState(db, ref, s);
      if (attempt === 'nothing-due') return { paid: s.status !== 'past_due', state };
      const c = await get<{ status: string }>(db, attempt, 'charge');
      if (c?.status === 'succeeded') return { paid: true, state };
      return {
        paid: false,
        failureMessage:
          s.kind === 'paypal'
            ? 'PayPal declined this payment. Please choose another way to pay.'
            : COMMERCE_MESSAGES.cardDeclined,
        state,
      };
    },

    async fundingFixUrl(ref) {
      const s = await subscription(db, ref);
      if (s.kind !== 'paypal') throw new ProviderError('unsupported', 'This membership is paid by card.');
      return `/sandbox/paypal/approve/${ref}`;
    },
  };
}
