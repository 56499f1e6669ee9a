import { ProviderError, type PaymentProvider } from '../provider.ts';
import { refusal, type StripeContext } from './client.ts';
import { invoicePaymentRef } from './objects.ts';

/** Refunds: of a charge or payment intent, whole or in part, and of one payment of a subscription (its invoice's). */

export function refundMethods(ctx: StripeContext): Pick<PaymentProvider, 'refund' | 'subscriptionPaymentCharge'> {
  const { sdk } = ctx;
  return {
    async refund(chargeRef, idempotencyKey, amountCents) {
      try {
        const target = chargeRef.startsWith('ch_') ? { charge: chargeRef } : { payment_intent: chargeRef };
        await sdk.refunds.create(amountCents === undefined ? target : { ...target, amount: amountCents }, {
          idempotencyKey,
        });
      } catch (err) {
        return refusal(err);
      }
    },

    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      try {
        // the first payment is the subscription's oldest invoice (Stripe lists newest first)
        const invoice = invoiceRef
          ? await sdk.invoices.retrieve(invoiceRef, { expand: ['payments'] })
          : (await sdk.invoices.list({ subscription: subscriptionRef, limit: 100, expand: ['data.payments'] })).data.at(
              -1,
            );
        const ref = invoice ? invoicePaymentRef(invoice) : null;
        if (!ref) throw new ProviderError('not_found', 'Stripe has no charge for this payment.');
        return ref;
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        return refusal(err);
      }
    },
  };
}
