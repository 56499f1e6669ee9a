import { COMMERCE_MESSAGES as M, type MembershipPlan } from '#shared/commerce';
import { orderUrl, type OrderStripeAnswer } from '#shared/checkout';
import { AppError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { cardError, ProviderError } from '#server/modules/payments/index';
import type { CheckoutDeps, CheckoutOrders } from './orders.ts';
import { ACTIVE_SUBSCRIPTION, idempotencyKey, intervalOf, planLabel, priceCents, trialDays } from './pricing.ts';

/** Paying by card: a lifetime plan is one charge, a monthly or yearly one a card subscription. */
export function createCardCheckout(deps: CheckoutDeps, steps: CheckoutOrders) {
  const { payments } = deps;
  const { planRow, guardSubscribed, settleCharge, markRequiresAction, settleSubscription } = steps;

  return {
    /** POST /order/stripe */
    async payByCard(
      user: AuthUser,
      input: { checkout: string; plan: MembershipPlan; paymentMethod: string; clientKey: string | null },
    ): Promise<OrderStripeAnswer> {
      const row = await planRow(input.checkout);
      const card = payments.providerFor('card');
      const amountCents = priceCents(row, input.plan);
      const key = idempotencyKey(user.id, 'card', row.slug, input.plan, input.clientKey ?? input.paymentMethod);
      await guardSubscribed(user, key);
      const { order: started, created } = await payments.startOrder(
        user,
        {
          kind: 'membership',
          productSlug: row.slug,
          plan: input.plan,
          amountCents,
          provider: card.name,
          affiliate: null,
          idempotencyKey: key,
          // the saved card: the billing page charges it again for a lifetime upgrade
          metadata: { paymentType: 'card', payment_method_id: input.paymentMethod },
        },
        { hold: true },
      );
      let order = started;
      if (!created) {
        order = await payments.settledOrder(started);
        if (order.status === 'paid') return { url: orderUrl(order.id) };
        if (order.status === 'failed') throw cardError(order.failureMessage || M.cardDeclined);
        if (order.status === 'pending')
          throw new AppError('conflict', 'Your payment is still being processed. Please wait a moment and refresh.');
        if (order.status !== 'requires_action')
          throw new AppError('conflict', 'This order can no longer be paid. Please refresh the page and try again.');
      }

      const metadata = { orderId: String(order.id), userId: String(user.id), checkout: row.slug, plan: input.plan };
      const description = `Backbeat membership (${planLabel(input.plan)})`;
      try {
        if (input.plan === 'lifetime') {
          // the same idempotency key after an authentication step: the provider answers the same payment
          const charge = await card.chargeCard({
            email: user.email,
            name: user.name,
            paymentMethod: input.paymentMethod,
            amountCents,
            description,
            idempotencyKey: key,
            metadata,
          });
          if (charge.status === 'succeeded') {
            await settleCharge(order, charge);
            return { url: orderUrl(order.id) };
          }
          if (charge.status === 'requires_action') {
            await markRequiresAction(order.id, charge.ref);
            return {
              requires_action: true,
              ...(charge.nextAction?.clientSecret ? { client_secret: charge.nextAction.clientSecret } : {}),
              ...(charge.nextAction?.url ? { url: charge.nextAction.url } : {}),
            };
          }
          const message = charge.failureMessage || M.cardDeclined;
          await payments.markOrderFailed(order.id, message);
          throw cardError(message);
        }

        const state =
          order.status === 'requires_action' && order.providerRef
            ? await card.getSubscription(order.providerRef)
            : await card.subscribeCard({
                email: user.email,
                name: user.name,
                paymentMethod: input.paymentMethod,
                priceCents: amountCents,
                interval: intervalOf(input.plan),
                trialDays: trialDays(row, input.plan),
                description,
                idempotencyKey: key,
                metadata,
              });
        if (ACTIVE_SUBSCRIPTION.includes(state.status)) {
          await settleSubscription(user, order, row.slug, card.name, state);
          return { url: orderUrl(order.id) };
        }
        if (state.nextAction && (state.status === 'incomplete' || state.status === 'past_due')) {
          await markRequiresAction(order.id, state.ref);
          return {
            requires_action: true,
            ...(state.nextAction.clientSecret ? { client_secret: state.nextAction.clientSecret } : {}),
            ...(state.nextAction.url ? { url: state.nextAction.url } : {}),
          };
        }
        await payments.markOrderFailed(order.id, M.cardDeclined);
        throw cardError(M.cardDeclined);
      } catch (err) {
        if (err instanceof ProviderError && err.code !== 'provider_error' && err.code !== 'unsupported') {
          await payments.markOrderFailed(order.id, err.message);
          throw cardError(err.message);
        }
        if (err instanceof ProviderError) {
          await payments.markOrderFailed(order.id, err.message);
          throw new AppError('provider-unavailable', err.message, { card: [err.message] });
        }
        throw err;
      }
    },
  };
}
