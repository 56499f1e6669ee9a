import { AppError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { cardError, ProviderError } from '#server/modules/payments/index';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import {
  cardPaymentOption,
  MENTORSHIP_CARD_PAYMENTS,
  MENTORSHIP_MESSAGES as M,
  type MentorshipCardPayment,
  type MentorshipPayAnswer,
} from '#shared/mentorship';
import { formatMoney } from '#shared/money';
import { ACTIVE, attemptKey, MENTORSHIP_HOME, type MentorshipCheckoutDeps, type MentorshipOrders } from './orders.ts';

/** The card page at /mentorship/stripe/{payment}: one charge, or a monthly card subscription of 2, 3 or 6 payments. */
export function createCardCharge(deps: MentorshipCheckoutDeps, steps: MentorshipOrders) {
  const { payments, instalments } = deps;
  const { guard, markRequiresAction } = steps;

  return {
    /**
     * POST /mentorship/stripe/charge: the card page's confirmed card. 3200/2700 charge once;
     * 1800/1300/650 start a monthly card subscription (first payment now) recorded as a plan of
     * 2/3/6 payments. The order key is the card (payment method) of this attempt unless the page
     * sends its own: reloading the charge page never charges twice.
     */
    async chargeCard(
      user: AuthUser,
      input: { payment: Exclude<MentorshipCardPayment, 'finance'>; paymentMethod: string; clientKey: string | null },
    ): Promise<MentorshipPayAnswer> {
      const spec = MENTORSHIP_CARD_PAYMENTS[input.payment];
      const option = cardPaymentOption(input.payment);
      const card = payments.providerFor('card');
      const key = attemptKey(user.id, 'card', option, input.clientKey ?? input.paymentMethod);
      if (await guard(user, key)) return { url: MENTORSHIP_HOME };
      const { order: started, created } = await payments.startOrder(
        user,
        {
          kind: 'mentorship',
          productSlug: option,
          plan: null,
          amountCents: spec.amountCents,
          provider: card.name,
          affiliate: null,
          idempotencyKey: key,
          metadata: {
            option,
            paymentType: 'card',
            payment_method_id: input.paymentMethod,
            instalments: spec.instalments,
            description:
              spec.instalments > 1
                ? `Backbeat mentorship: payment 1 of ${spec.instalments}`
                : `Backbeat mentorship (${formatMoney(spec.amountCents)})`,
          },
        },
        { hold: true },
      );
      let order = started;
      if (!created) {
        order = await payments.settledOrder(started);
        if (order.status === 'paid') return { url: MENTORSHIP_HOME };
        if (order.status === 'failed') throw cardError(order.failureMessage || COMMERCE_MESSAGES.cardDeclined);
        if (order.status === 'pending') throw new AppError('conflict', M.paymentPending);
        if (order.status !== 'requires_action')
          throw new AppError('conflict', 'This payment can no longer be made. Please go back and try again.');
      }
      const metadata = { orderId: String(order.id), userId: String(user.id), mentorship: option };
      try {
        if (spec.instalments === 1) {
          const charge = await card.chargeCard({
            email: user.email,
            name: user.name,
            paymentMethod: input.paymentMethod,
            amountCents: spec.amountCents,
            description: `Backbeat mentorship (${formatMoney(spec.amountCents)})`,
            idempotencyKey: key,
            metadata,
          });
          if (charge.status === 'succeeded') {
            await payments.markOrderPaid(order.id, charge);
            return { url: MENTORSHIP_HOME };
          }
          if (charge.status === 'requires_action') {
            await markRequiresAction(order.id, charge.ref);
            return {
              requires_action: true,
              ...(charge.nextAction?.url ? { url: charge.nextAction.url } : {}),
              ...(charge.nextAction?.clientSecret ? { client_secret: charge.nextAction.clientSecret } : {}),
            };
          }
          const message = charge.failureMessage || COMMERCE_MESSAGES.cardDeclined;
          await payments.markOrderFailed(order.id, message);
          throw cardError(message);
        }
        const state = await card.subscribeCard({
          email: user.email,
          name: user.name,
          paymentMethod: input.paymentMethod,
          priceCents: spec.amountCents,
          interval: 'month',
          trialDays: 0,
          description: `Backbeat mentorship: ${spec.instalments} monthly payments of ${formatMoney(spec.amountCents)}`,
          idempotencyKey: key,
          metadata,
        });
        if (ACTIVE.includes(state.status)) {
          await instalments.recordPlan(order, { option, provider: card.name, state, total: spec.instalments });
          await payments.markOrderPaid(order.id, {
            ref: `${state.ref}:first`,
            paymentMethodLabel: state.paymentMethodLabel,
          });
          return { url: MENTORSHIP_HOME };
        }
        if (state.nextAction) {
          await markRequiresAction(order.id, state.ref);
          return {
            requires_action: true,
            ...(state.nextAction.url ? { url: state.nextAction.url } : {}),
            ...(state.nextAction.clientSecret ? { client_secret: state.nextAction.clientSecret } : {}),
          };
        }
        // never left charging: an incomplete subscription is cancelled at once
        await card
          .cancel(state.ref, { atPeriodEnd: false }, `mentorship-incomplete-${order.id}`)
          .catch(() => undefined);
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.cardDeclined);
        throw cardError(COMMERCE_MESSAGES.cardDeclined);
      } catch (err) {
        if (err instanceof ProviderError) {
          await payments.markOrderFailed(order.id, err.message);
          if (err.code === 'provider_error' || err.code === 'unsupported')
            throw new AppError('provider-unavailable', err.message, { card: [err.message] });
          throw cardError(err.message);
        }
        throw err;
      }
    },
  };
}
