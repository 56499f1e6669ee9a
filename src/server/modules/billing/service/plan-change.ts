import { and, eq } from 'drizzle-orm';
import { orders, sandboxObjects } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import { ProviderError, type SubscriptionRow } from '#server/modules/payments/index';
import type { AuthUser } from '#server/types';
import { COMMERCE_MESSAGES, type ProviderName } from '#shared/commerce';
import { BILLING_MESSAGES, lifetimeOfferCents, yearlyOfferCents } from '#shared/billing';
import type { ActionResult, BillingContext, RetentionCall } from './shared.ts';

/**
 * Changing plan (docs/product/retention.md): monthly to yearly, or to a lifetime membership that
 * ends the subscription; at the retention price from the cancel flow, at the full price otherwise.
 * A card pays the lifetime with the saved card; PayPal approves an order on PayPal's page first.
 */
export function createPlanChangeFlow(ctx: BillingContext) {
  const { db, payments, serial, checkout, subscriptionRow, refuse, providerOf, sync, feedback, viaProvider } = ctx;
  const { hasLifetime } = ctx;

  /**
   * The saved card of a subscription: the payment method id its order recorded (`payment_method_id`),
   * or, for the built-in sandbox (which plays Stripe), the default payment method of its subscription
   * object, as Stripe's subscription.default_payment_method would tell.
   */
  async function savedPaymentMethod(sub: SubscriptionRow): Promise<string> {
    if (sub.orderId) {
      const [order] = await db
        .select({ metadata: orders.metadata })
        .from(orders)
        .where(eq(orders.id, sub.orderId))
        .limit(1);
      const pm = order?.metadata.payment_method_id;
      if (typeof pm === 'string' && pm) return pm;
    }
    if (sub.provider === 'sandbox') {
      const [row] = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(eq(sandboxObjects.id, sub.providerRef))
        .limit(1);
      const pm = row?.data.paymentMethod;
      if (typeof pm === 'string' && pm) return pm;
    }
    throw refuse(
      'We could not find the card saved with your membership. Please contact us and we will set up your lifetime membership.',
      'payment',
    );
  }

  async function upgradeYearly(call: RetentionCall): Promise<ActionResult> {
    const { user, sub, input, plain, key, provider, live, notActive, o } = call;
    if (sub.plan === 'yearly') return { message: BILLING_MESSAGES.alreadyYearly };
    if (!live) throw notActive();
    const prices = await checkout(sub.checkoutSlug);
    // the yearly plan at the checkout's yearly price; the offer takes $50 off the first year only:
    // the provider switches the plan and charges the first year now
    const firstInvoiceAmountOffCents = plain ? 0 : prices.yearly - yearlyOfferCents(prices.yearly, o);
    const state = await viaProvider(() =>
      provider.changePlan(
        sub.providerRef,
        { priceCents: prices.yearly, interval: 'year', firstInvoiceAmountOffCents },
        key,
      ),
    );
    await sync(sub, state);
    if (plain) return { message: BILLING_MESSAGES.upgradeYearlyFull };
    await feedback(sub, user.id, input, 'upgrade-yearly');
    return { message: BILLING_MESSAGES.upgradeYearlyOff(firstInvoiceAmountOffCents) };
  }

  async function upgradeLifetime(call: RetentionCall): Promise<ActionResult> {
    const { user, sub, input, plain, key, provider, live, notActive, o } = call;
    if (await hasLifetime(user.id)) return { message: BILLING_MESSAGES.upgradeLifetime };
    if (!live && sub.status !== 'paused') throw notActive();
    const prices = await checkout(sub.checkoutSlug);
    const amountCents = plain ? prices.lifetime : lifetimeOfferCents(prices.lifetime, o);
    const { order } = await payments.startOrder(
      user,
      {
        kind: 'membership',
        productSlug: sub.checkoutSlug,
        plan: 'lifetime',
        amountCents,
        provider: sub.provider as ProviderName,
        affiliate: null,
        idempotencyKey: `${key}:order`,
        metadata: plain
          ? { source: 'upgrade', subscriptionId: sub.id }
          : {
              source: 'retention',
              subscriptionId: sub.id,
              reason: input.reason,
              reason_description: input.description,
            },
      },
      { hold: true },
    );
    if (order.status !== 'paid') {
      const charge = await viaProvider(async () =>
        provider.chargeCard({
          email: user.email,
          name: user.name,
          paymentMethod: await savedPaymentMethod(sub),
          amountCents,
          description: plain ? 'Lifetime membership' : `Lifetime membership (${o.lifetimeDiscountPercent}% off)`,
          idempotencyKey: `${key}:charge`,
          metadata: { orderId: String(order.id), userId: String(user.id) },
        }),
      );
      if (charge.status !== 'succeeded') {
        const message = charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined;
        await payments.markOrderFailed(order.id, message);
        throw refuse(message, 'payment');
      }
      await payments.attachProviderRef(order.id, charge.ref).catch(() => undefined);
      await payments.markOrderPaid(order.id, charge);
    }
    const canceled = await viaProvider(() => provider.cancel(sub.providerRef, { atPeriodEnd: false }, `${key}:cancel`));
    await sync(sub, canceled);
    if (!plain) await feedback(sub, user.id, input, 'upgrade-lifetime');
    return { message: BILLING_MESSAGES.upgradeLifetime };
  }

  /** PayPal's lifetime offer: an order the member approves on PayPal's page (lifetimeReturn captures it) */
  async function lifetimeCheckout(call: RetentionCall): Promise<ActionResult> {
    const { user, sub, input, key, o } = call;
    if (await hasLifetime(user.id)) return { message: BILLING_MESSAGES.upgradeLifetime, url: '/account/billing' };
    const prices = await checkout(sub.checkoutSlug);
    const amountCents = lifetimeOfferCents(prices.lifetime, o);
    const { order } = await payments.startOrder(user, {
      kind: 'membership',
      productSlug: sub.checkoutSlug,
      plan: 'lifetime',
      amountCents,
      provider: payments.providerFor('paypal').name,
      affiliate: null,
      idempotencyKey: `${key}:order`,
      metadata: {
        source: 'retention',
        subscriptionId: sub.id,
        reason: input.reason,
        reason_description: input.description,
      },
    });
    if (order.status === 'paid') return { message: BILLING_MESSAGES.upgradeLifetime, url: '/account/billing' };
    const approval = await viaProvider(() =>
      payments.providerFor('paypal').createPaypalOrder({
        amountCents,
        description: `Lifetime membership (${o.lifetimeDiscountPercent}% off)`,
        returnUrl: `/account/billing/paypal/lifetime-return?order=${order.id}`,
        cancelUrl: '/account/billing?lifetime=canceled',
        idempotencyKey: `${key}:paypal-order`,
        metadata: { orderId: String(order.id), userId: String(user.id) },
      }),
    );
    if (order.providerRef !== approval.ref) await payments.attachProviderRef(order.id, approval.ref);
    return { message: '', url: approval.url };
  }

  /**
   * GET /account/billing/paypal/lifetime-return: capture the approved order, grant the lifetime
   * membership, cancel the old subscription (our access lasts anyway) and store the reason.
   * Returns where to send the browser.
   */
  async function lifetimeReturn(user: AuthUser, orderId: number): Promise<string> {
    const [order] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
      .limit(1);
    if (!order || order.plan !== 'lifetime' || order.metadata.source !== 'retention' || !order.providerRef)
      throw notFound();
    const subId = Number(order.metadata.subscriptionId);
    return serial(subId, async () => {
      const [fresh] = await db.select().from(orders).where(eq(orders.id, order.id)).limit(1);
      if (fresh!.status === 'paid') return '/account/billing';
      if (fresh!.status !== 'pending' && fresh!.status !== 'requires_action') return '/account/billing?lifetime=failed';
      const paypal = payments.providerFor('paypal');
      try {
        // a lifetime bought meanwhile in another tab: nothing is captured
        await payments.takeHold(order.id);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
        await payments.markOrderFailed(order.id, err.message);
        return '/account/billing?lifetime=failed';
      }
      let charge;
      try {
        charge = await paypal.capturePaypalOrder(
          fresh!.providerRef!,
          `billing:${user.id}:lifetime-capture:${order.id}`,
        );
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        await payments.markOrderFailed(order.id, err.message);
        return '/account/billing?lifetime=failed';
      }
      if (charge.status !== 'succeeded') {
        await payments.markOrderFailed(order.id, charge.failureMessage ?? BILLING_MESSAGES.lifetimeCheckoutFailed);
        return '/account/billing?lifetime=failed';
      }
      await payments.markOrderPaid(order.id, charge);
      const sub = await subscriptionRow(subId);
      if (sub && sub.userId === user.id && sub.status !== 'canceled') {
        const state = await providerOf(sub).cancel(
          sub.providerRef,
          { atPeriodEnd: false },
          `billing:${user.id}:${sub.id}:lifetime-cancel:${order.id}`,
        );
        await sync(sub, state);
        await feedback(
          sub,
          user.id,
          {
            reason: String(order.metadata.reason ?? ''),
            description: String(order.metadata.reason_description ?? ''),
          },
          'lifetime-checkout',
        );
      }
      return '/account/billing';
    });
  }

  return { upgradeYearly, upgradeLifetime, lifetimeCheckout, lifetimeReturn };
}
