import { COMMERCE_MESSAGES } from '#shared/commerce';
import { ProviderError, type PaymentProvider, type RetryResult } from '../provider.ts';
import { expand, isCardError, refusal, type StripeContext } from './client.ts';
import { idOf, mapStripeSubscription } from './objects.ts';

/**
 * Recovery from a failed payment (docs/product/dunning.md): a new card on the subscription's own
 * customer, made the subscription's default, and "Pay now" on the invoice due.
 */

export function recoveryMethods(
  ctx: StripeContext,
): Pick<PaymentProvider, 'createSubscriptionCardSetup' | 'updatePaymentMethod' | 'retryPayment' | 'fundingFixUrl'> {
  const { sdk } = ctx;
  return {
    async createSubscriptionCardSetup(ref, input) {
      try {
        // the new card belongs to the subscription's own customer, so the subscription may use it
        const sub = await sdk.subscriptions.retrieve(ref);
        const intent = await sdk.setupIntents.create(
          {
            customer: idOf(sub.customer),
            usage: 'off_session',
            payment_method_types: ['card'],
            metadata: input.metadata,
          },
          { idempotencyKey: `${input.idempotencyKey}:setup` },
        );
        return { clientSecret: intent.client_secret ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async updatePaymentMethod(ref, paymentMethod, idempotencyKey) {
      try {
        return mapStripeSubscription(
          await sdk.subscriptions.update(ref, { default_payment_method: paymentMethod, expand }, { idempotencyKey }),
        );
      } catch (err) {
        return refusal(err);
      }
    },

    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      try {
        const sub = await sdk.subscriptions.retrieve(ref, { expand: ['latest_invoice'] });
        const invoice = sub.latest_invoice;
        const invoiceId = idOf(invoice);
        const open = invoice && typeof invoice !== 'string' ? invoice.status === 'open' : !!invoiceId;
        let failureMessage: string | undefined;
        if (invoiceId && open) {
          try {
            // the invoice due, paid now with the subscription's (new) default payment method
            await sdk.invoices.pay(invoiceId, { off_session: true }, { idempotencyKey });
          } catch (err) {
            if (!isCardError(err)) throw err;
            failureMessage = err.message || COMMERCE_MESSAGES.cardDeclined;
          }
        }
        const state = mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
        if (failureMessage) return { paid: false, failureMessage, state };
        return {
          paid: state.status !== 'past_due',
          ...(state.status === 'past_due' ? { failureMessage: COMMERCE_MESSAGES.cardDeclined } : {}),
          state,
        };
      } catch (err) {
        return refusal(err);
      }
    },

    async fundingFixUrl() {
      throw new ProviderError('unsupported', 'A card membership is fixed by updating the card.');
    },
  };
}
