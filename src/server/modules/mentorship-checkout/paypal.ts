import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import type { SubscriptionState } from '#server/modules/payments/index';
import {
  MENTORSHIP_CHECKOUT_MESSAGES as CM,
  MENTORSHIP_INSTALMENT_PLANS,
  MENTORSHIP_MESSAGES as M,
  type MentorshipInstalmentOption,
} from '#shared/mentorship';
import { formatMoney } from '#shared/money';
import {
  ACTIVE,
  alreadyEnrolled,
  attemptKey,
  MENTORSHIP_HOME,
  type MentorshipCheckoutDeps,
  type MentorshipOrders,
} from './orders.ts';

/** The PayPal instalment plans: the subscription's approval address, then the approved plan. */
export function createPaypalInstalments(deps: MentorshipCheckoutDeps, steps: MentorshipOrders) {
  const { payments, enrolment, instalments } = deps;
  const { guard, mergeMetadata } = steps;

  return {
    /** POST /mentorship/paypal/subscription: the PayPal instalment subscription's approval address */
    async paypalSubscription(
      user: AuthUser,
      input: { plan: MentorshipInstalmentOption; clientKey: string | null },
    ): Promise<{ url: string }> {
      const spec = MENTORSHIP_INSTALMENT_PLANS[input.plan];
      const paypal = payments.providerFor('paypal');
      const key = attemptKey(user.id, 'paypal', input.plan, input.clientKey ?? randomUUID());
      if (await guard(user, key)) return { url: MENTORSHIP_HOME };
      const { order, created } = await payments.startOrder(user, {
        kind: 'mentorship',
        productSlug: input.plan,
        plan: null,
        amountCents: spec.amountCents,
        provider: paypal.name,
        affiliate: null,
        idempotencyKey: key,
        metadata: {
          option: input.plan,
          paymentType: 'paypal',
          instalments: spec.instalments,
          description: `Backbeat mentorship: payment 1 of ${spec.instalments}`,
        },
      });
      if (!created) {
        const current = await payments.settledOrder(order, (o) => typeof o.metadata?.approvalUrl === 'string');
        if (current.status === 'paid') return { url: MENTORSHIP_HOME };
        const url = current.metadata?.approvalUrl;
        if (typeof url === 'string' && current.status === 'pending') return { url };
        throw new AppError('provider-unavailable', M.checkoutLinkFailed);
      }
      const back = `/mentorship/checkout?plan=${input.plan}${input.plan === '6' ? '&showsix=1' : ''}`;
      try {
        const approval = await paypal.createPaypalSubscription({
          priceCents: spec.amountCents,
          interval: 'month',
          trialDays: 0,
          description: `Backbeat mentorship: ${spec.instalments} monthly payments of ${formatMoney(spec.amountCents)}`,
          returnUrl: back,
          cancelUrl: `${back}&paypal=cancelled`,
          idempotencyKey: key,
          metadata: { orderId: String(order.id), userId: String(user.id), mentorship: input.plan },
        });
        await payments.attachProviderRef(order.id, approval.ref);
        await mergeMetadata(order.id, { approvalUrl: approval.url });
        return { url: approval.url };
      } catch {
        await payments.markOrderFailed(order.id, M.checkoutLinkFailed).catch(() => undefined);
        throw new AppError('provider-unavailable', M.checkoutLinkFailed);
      }
    },

    /**
     * POST /mentorship/payment-plan: the PayPal subscription was approved. Check it at PayPal,
     * record the instalment plan (first payment made), mark the order paid (which enrols).
     */
    async paymentPlan(
      user: AuthUser,
      input: { agreementId: string; contact: Record<string, string> },
    ): Promise<{ url: string }> {
      const paypal = payments.providerFor('paypal');
      const order = await payments.findOrderByRef(paypal.name, input.agreementId);
      if (
        !order ||
        order.userId !== user.id ||
        order.kind !== 'mentorship' ||
        !(order.productSlug in MENTORSHIP_INSTALMENT_PLANS)
      )
        throw notFound(M.instalmentPlanFailed);
      if (order.status === 'paid') {
        await enrolment.enrol(order);
        return { url: MENTORSHIP_HOME };
      }
      if (order.status !== 'pending' && order.status !== 'requires_action')
        throw new AppError('conflict', M.instalmentPlanFailed);
      const option = order.productSlug as MentorshipInstalmentOption;
      let state: SubscriptionState;
      try {
        state = await paypal.getSubscription(input.agreementId);
      } catch {
        throw new AppError('provider-unavailable', M.instalmentPlanFailed);
      }
      if (state.status === 'approval_pending') throw new AppError('conflict', CM.notApproved);
      if (!ACTIVE.includes(state.status)) {
        await payments.markOrderFailed(order.id, M.instalmentPlanFailed);
        throw new AppError('payment-declined', M.instalmentPlanFailed);
      }
      try {
        await payments.takeHold(order.id);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
        // enrolled meanwhile, or enrolling in another tab: this subscription must not charge again
        await payments.withdrawSubscription(paypal, input.agreementId, `mentorship-duplicate-${order.id}`);
        await payments.markOrderFailed(order.id, M.alreadyEnrolled);
        throw alreadyEnrolled();
      }
      await instalments.recordPlan(order, {
        option,
        provider: paypal.name,
        state,
        total: MENTORSHIP_INSTALMENT_PLANS[option].instalments,
      });
      await mergeMetadata(order.id, { contact: input.contact, paymentMethod: state.paymentMethodLabel });
      await payments.markOrderPaid(order.id, {
        ref: `${state.ref}:first`,
        paymentMethodLabel: state.paymentMethodLabel,
      });
      return { url: MENTORSHIP_HOME };
    },
  };
}
