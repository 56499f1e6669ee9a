import { randomUUID } from 'node:crypto';
import { COMMERCE_MESSAGES as M, type MembershipPlan } from '#shared/commerce';
import { joinUrl, orderUrl } from '#shared/checkout';
import { AppError, notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { ProviderError } from '#server/modules/payments/index';
import type { CheckoutDeps, CheckoutOrders } from './orders.ts';
import {
  ACTIVE_SUBSCRIPTION,
  idempotencyKey,
  intervalOf,
  paypalFailed,
  planLabel,
  priceCents,
  trialDays,
} from './pricing.ts';

/** Paying with PayPal: the approval address, and the buyer's return from PayPal. */
export function createPaypalCheckout(deps: CheckoutDeps, steps: CheckoutOrders) {
  const { payments } = deps;
  const { planRow, guardSubscribed, mergeMetadata, readOrder, settleCharge, settleSubscription } = steps;

  return {
    /** POST /paypal/get-approval-url (monthly, yearly) and /paypal/lifetime-checkout */
    async paypalApproval(
      user: AuthUser,
      input: { checkout: string; plan: MembershipPlan; clientKey: string | null },
    ): Promise<{ url: string }> {
      const row = await planRow(input.checkout);
      const paypal = payments.providerFor('paypal');
      const amountCents = priceCents(row, input.plan);
      const key = idempotencyKey(user.id, 'paypal', row.slug, input.plan, input.clientKey ?? randomUUID());
      await guardSubscribed(user, key);
      const { order, created } = await payments.startOrder(user, {
        kind: 'membership',
        productSlug: row.slug,
        plan: input.plan,
        amountCents,
        provider: paypal.name,
        affiliate: null,
        idempotencyKey: key,
        metadata: { paymentType: 'paypal' },
      });
      if (!created) {
        const current = await payments.settledOrder(order, (o) => typeof o.metadata?.approvalUrl === 'string');
        if (current.status === 'paid') return { url: orderUrl(current.id) };
        const approval = current.metadata?.approvalUrl;
        if (typeof approval === 'string' && current.status === 'pending') return { url: approval };
        throw paypalFailed();
      }
      const metadata = { orderId: String(order.id), userId: String(user.id), checkout: row.slug, plan: input.plan };
      const description = `Backbeat membership (${planLabel(input.plan)})`;
      const returnUrl = `/paypal/return?order=${order.id}`;
      const cancelUrl = `${joinUrl(row.slug)}?paypal=cancelled`;
      try {
        const approval =
          input.plan === 'lifetime'
            ? await paypal.createPaypalOrder({
                amountCents,
                description,
                returnUrl,
                cancelUrl,
                idempotencyKey: key,
                metadata,
              })
            : await paypal.createPaypalSubscription({
                priceCents: amountCents,
                interval: intervalOf(input.plan),
                trialDays: trialDays(row, input.plan),
                description,
                returnUrl,
                cancelUrl,
                idempotencyKey: key,
                metadata,
              });
        await payments.attachProviderRef(order.id, approval.ref);
        await mergeMetadata(order.id, { approvalUrl: approval.url });
        return { url: approval.url };
      } catch (err) {
        await payments
          .markOrderFailed(order.id, err instanceof Error ? err.message : 'PayPal failed')
          .catch(() => undefined);
        if (err instanceof AppError) throw err;
        throw paypalFailed();
      }
    },

    /**
     * GET /paypal/return: the buyer approved at PayPal. Capture the order (lifetime) or fetch the
     * subscription, record it through the ledger, and answer where to go (the order, or back to
     * the checkout with an error flag).
     */
    async paypalReturn(
      user: AuthUser,
      orderId: number,
      refs: { token?: string | undefined; subscriptionId?: string | undefined },
    ): Promise<string> {
      const order = await readOrder(orderId);
      if (!order || order.userId !== user.id || order.kind !== 'membership') throw notFound();
      const back = `${joinUrl(order.productSlug)}?paypal=failed`;
      if (order.status === 'paid') return orderUrl(order.id);
      if (order.status !== 'pending' && order.status !== 'requires_action') return back;
      const paypal = payments.providerFor('paypal');
      if (!order.providerRef || order.provider !== paypal.name) return back;
      // the address must name this order's PayPal object, not someone else's
      if (
        order.plan === 'lifetime'
          ? refs.token && refs.token !== order.providerRef
          : refs.subscriptionId && refs.subscriptionId !== order.providerRef
      )
        return back;
      /**
       * Another tab may have made them a member since they left for PayPal: the order takes the
       * membership's hold before anything is captured or recorded; false: refused (the order failed).
       */
      const held = async (): Promise<boolean> => {
        try {
          await payments.takeHold(order.id);
          return true;
        } catch (err) {
          if (!(err instanceof AppError && err.statusCode === 409)) throw err;
          await payments.markOrderFailed(order.id, err.message);
          return false;
        }
      };
      try {
        if (order.plan === 'lifetime') {
          if (!(await held())) return back;
          const charge = await paypal.capturePaypalOrder(order.providerRef, `${order.idempotencyKey}_capture`);
          if (charge.status !== 'succeeded') {
            await payments.markOrderFailed(order.id, charge.failureMessage || M.paypalLinkFailed);
            return back;
          }
          await settleCharge(order, charge);
          return orderUrl(order.id);
        }
        const state = await paypal.getSubscription(order.providerRef);
        if (!ACTIVE_SUBSCRIPTION.includes(state.status)) {
          if (state.status === 'approval_pending') return `${joinUrl(order.productSlug)}?paypal=cancelled`;
          await payments.markOrderFailed(order.id, M.paypalLinkFailed);
          return back;
        }
        if (!(await held())) {
          // the approved PayPal subscription would bill a second membership: it stops here
          await payments.withdrawSubscription(paypal, order.providerRef, `${order.idempotencyKey}_duplicate`);
          return back;
        }
        await settleSubscription(user, order, order.productSlug, paypal.name, state);
        return orderUrl(order.id);
      } catch (err) {
        if (err instanceof ProviderError) {
          await payments.markOrderFailed(order.id, err.message).catch(() => undefined);
          return err.code === 'canceled' ? `${joinUrl(order.productSlug)}?paypal=cancelled` : back;
        }
        throw err;
      }
    },
  };
}
