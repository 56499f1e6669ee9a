import { randomUUID } from 'node:crypto';
import { AppError } from '#server/lib/errors';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { DUNNING_MESSAGES } from '#shared/dunning';
import type { AuthUser } from '#server/types';
import type { ActionResult, BillingContext } from './shared.ts';

/** A payment is due (docs/product/dunning.md): a new card for the subscription, and "Pay now". */
export function createDunningFlow(ctx: BillingContext) {
  const { serial, subscriptionRow, owned, refuse, idemKey, providerOf, sync, viaProvider } = ctx;

  return {
    /** POST /account/billing/card/setup: the provider's setup flow for a new card (a SetupIntent's client secret) */
    async cardSetup(user: AuthUser): Promise<{ clientSecret: string }> {
      const sub = await owned(user, 'card');
      if (sub.status === 'canceled') throw refuse(COMMERCE_MESSAGES.noSubscription);
      return viaProvider(() =>
        providerOf(sub).createSubscriptionCardSetup(sub.providerRef, {
          idempotencyKey: `billing:${user.id}:${sub.id}:card-setup:${randomUUID()}`,
          metadata: { userId: String(user.id), subscriptionId: String(sub.id) },
        }),
      );
    },

    /** POST /account/billing/card: the subscription pays with the card the setup flow confirmed */
    async updateCard(user: AuthUser, paymentMethod: string, clientKey: string | null): Promise<ActionResult> {
      const first = await owned(user, 'card');
      return serial(first.id, async () => {
        const sub = (await subscriptionRow(first.id)) ?? first;
        if (sub.status === 'canceled') throw refuse(COMMERCE_MESSAGES.noSubscription);
        const state = await viaProvider(() =>
          providerOf(sub).updatePaymentMethod(
            sub.providerRef,
            paymentMethod,
            idemKey(user, sub, `card:${paymentMethod}`, clientKey),
          ),
        );
        await sync(sub, state);
        return { message: DUNNING_MESSAGES.cardUpdated };
      });
    },

    /** POST /account/billing/pay-now: collect the payment due at once (after a new card, or a fixed PayPal account) */
    async payNow(user: AuthUser, clientKey: string | null): Promise<ActionResult> {
      const first = await owned(user, null);
      return serial(first.id, async () => {
        const sub = (await subscriptionRow(first.id)) ?? first;
        if (sub.status !== 'past_due') throw new AppError('conflict', DUNNING_MESSAGES.notPastDue);
        const result = await viaProvider(() =>
          providerOf(sub).retryPayment(sub.providerRef, idemKey(user, sub, 'pay-now', clientKey)),
        );
        await sync(sub, result.state);
        if (!result.paid) throw refuse(result.failureMessage ?? COMMERCE_MESSAGES.cardDeclined, 'payment');
        return { message: DUNNING_MESSAGES.paid };
      });
    },
  };
}
