import { and, eq, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { COMMERCE_MESSAGES, DOUBLE_KICK_TIERS, type CourseLevel } from '#shared/commerce';
import { PRODUCT_MESSAGES, courseCheckoutUrl, doubleKickCheckoutUrl, type PaypalOutcome } from '#shared/products';
import { orderUrl } from '#shared/checkout';
import type { Database } from '#server/db/client';
import { orders, products } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import type { PaymentsService, OrderRow } from '#server/modules/payments/index';
import { cardError, ProviderError } from '#server/modules/payments/index';
import type { AuthUser } from '#server/types';
import type { Owns } from './ownership.ts';
import { soldOut, type ProductRow, type Spots } from './spots.ts';

export const alreadyOwned = () => new AppError('conflict', PRODUCT_MESSAGES.alreadyOwned);

const isDoubleKick = (slug: string) => DOUBLE_KICK_TIERS.some((t) => t.slug === slug);

/** Buying a tier by card or PayPal through the payments ledger, a spot held from the moment the buyer pays. */
export function createPurchases(deps: { db: Database; payments: PaymentsService }, spots: Spots, owns: Owns) {
  const { db, payments } = deps;
  const { reserve } = spots;

  async function productOr404(slug: string) {
    const [p] = await db
      .select()
      .from(products)
      .where(and(eq(products.slug, slug), eq(products.active, true)))
      .limit(1);
    if (!p) throw notFound(PRODUCT_MESSAGES.unknownProduct);
    return p;
  }

  const checkoutPath = (p: ProductRow, affiliate: string | null) =>
    isDoubleKick(p.slug) || p.courseId === null
      ? doubleKickCheckoutUrl(p.slug, affiliate)
      : courseCheckoutUrl(p.courseId, (p.level ?? 'basic') as CourseLevel, affiliate);

  /** the server-side key of a charge: user, product and the key the browser sent (or a fresh one) */
  const orderKey = (user: AuthUser, slug: string, method: string, clientKey: string | undefined) =>
    `product:${createHash('sha256')
      .update(`${user.id}:${slug}:${method}:${clientKey || randomBytes(16).toString('hex')}`)
      .digest('hex')
      .slice(0, 40)}`;

  async function begin(
    user: AuthUser,
    slug: string,
    method: 'card' | 'paypal',
    input: { affiliate: string | null; idempotencyKey: string | undefined },
  ) {
    const p = await productOr404(slug);
    if (await owns(user, p.courseId)) throw alreadyOwned();
    const provider = payments.providerFor(method);
    // a card is charged in this request: the order holds the course first (one copy per member,
    // whichever tier); a PayPal order takes the hold when the buyer comes back to be captured
    const { order } = await payments.startOrder(
      user,
      {
        kind: 'course',
        productSlug: p.slug,
        plan: null,
        // the server's price: nothing the browser sends sets an amount
        amountCents: p.priceCents,
        provider: provider.name,
        affiliate: input.affiliate,
        idempotencyKey: orderKey(user, p.slug, method, input.idempotencyKey),
        metadata: { courseId: p.courseId, level: p.level, checkout: checkoutPath(p, input.affiliate) },
      },
      { hold: method === 'card' },
    );
    return { p, provider, order };
  }

  /** the charge went through: record it (the ledger refunds and refuses a spot lost on the way) */
  async function settle(order: OrderRow, charge: { ref: string; paymentMethodLabel: string }) {
    let paid: OrderRow;
    try {
      paid = await payments.markOrderPaid(order.id, charge);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 409) throw soldOut();
      throw err;
    }
    // the order page and the receipt say how it was paid; the provider's own notice of the charge
    // may have settled the order first, without the card's or the PayPal account's label
    if (charge.paymentMethodLabel && !paid.metadata.paymentMethod) {
      await db
        .update(orders)
        .set({
          metadata: sql`${orders.metadata} || ${JSON.stringify({ paymentMethod: charge.paymentMethodLabel })}::jsonb`,
        })
        .where(eq(orders.id, order.id));
    }
    return paid;
  }

  return {
    /** a SetupIntent's client secret for the card form */
    async cardClientSecret(user: AuthUser, slug: string) {
      const p = await productOr404(slug);
      if (await owns(user, p.courseId)) throw alreadyOwned();
      return payments.providerFor('card').createCardSetup({
        email: user.email,
        name: user.name,
        idempotencyKey: `setup:${user.id}:${randomBytes(12).toString('hex')}`,
        metadata: { userId: String(user.id), product: p.slug },
      });
    },

    /** charge a confirmed card for a tier: answers the order page's address */
    async payByCard(
      user: AuthUser,
      slug: string,
      input: { paymentMethod: string; affiliate: string | null; idempotencyKey: string | undefined },
    ) {
      const { p, provider, order } = await begin(user, slug, 'card', input);
      if (order.status === 'paid') return { url: orderUrl(order.id) };
      if (order.status === 'failed') throw cardError(order.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
      try {
        await reserve(p, order);
      } catch (err) {
        await payments.markOrderFailed(order.id, err instanceof Error ? err.message : COMMERCE_MESSAGES.soldOut);
        throw err;
      }
      let charge;
      try {
        charge = await provider.chargeCard({
          email: user.email,
          name: user.name,
          paymentMethod: input.paymentMethod,
          amountCents: order.amountCents,
          description: p.title,
          idempotencyKey: order.idempotencyKey,
          metadata: { orderId: String(order.id), userId: String(user.id), product: p.slug },
        });
      } catch (err) {
        const message = err instanceof ProviderError ? err.message : COMMERCE_MESSAGES.cardDeclined;
        await payments.markOrderFailed(order.id, message);
        throw cardError(message);
      }
      if (charge.status !== 'succeeded') {
        // the card form authenticates the card when it is set up; a charge still asking for it is refused
        const message =
          charge.status === 'requires_action'
            ? PRODUCT_MESSAGES.needsAuthentication
            : (charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
        await payments.markOrderFailed(order.id, message);
        throw cardError(message);
      }
      await payments.attachProviderRef(order.id, charge.ref);
      await settle(order, charge);
      return { url: orderUrl(order.id) };
    },

    /** a PayPal order to approve: answers PayPal's (or the sandbox's) approval address */
    async payByPaypal(
      user: AuthUser,
      slug: string,
      input: { affiliate: string | null; idempotencyKey: string | undefined; origin: string },
    ) {
      const { p, provider, order } = await begin(user, slug, 'paypal', input);
      if (order.status === 'paid') return { url: orderUrl(order.id) };
      try {
        await reserve(p, order);
      } catch (err) {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.soldOut);
        throw err;
      }
      const back = `${input.origin}/api/products/paypal/return?order=${order.id}`;
      const approval = await provider.createPaypalOrder({
        amountCents: order.amountCents,
        description: p.title,
        returnUrl: back,
        cancelUrl: `${back}&cancel=1`,
        idempotencyKey: order.idempotencyKey,
        metadata: { orderId: String(order.id), userId: String(user.id), product: p.slug },
      });
      if (order.providerRef !== approval.ref) await payments.attachProviderRef(order.id, approval.ref);
      return { url: approval.url };
    },

    /**
     * The buyer is back from PayPal: capture, record, and say where to go (the order page, or the
     * checkout with the outcome).
     */
    async paypalReturn(
      user: AuthUser,
      orderId: number,
      input: { token: string | undefined; cancel: boolean },
    ): Promise<string> {
      const [order] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, user.id), eq(orders.kind, 'course')))
        .limit(1);
      if (!order) throw notFound();
      const checkout =
        typeof order.metadata.checkout === 'string' && order.metadata.checkout.startsWith('/checkout/')
          ? order.metadata.checkout
          : '/courses';
      const back = (outcome: PaypalOutcome) => `${checkout}${checkout.includes('?') ? '&' : '?'}paypal=${outcome}`;
      if (order.status === 'paid') return orderUrl(order.id);
      if (order.status !== 'pending' && order.status !== 'requires_action') return back('failed');
      if (input.cancel) {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.paymentCanceled);
        return back('canceled');
      }
      if (!order.providerRef || (input.token && input.token !== order.providerRef)) throw notFound();
      const [p] = await db.select().from(products).where(eq(products.slug, order.productSlug)).limit(1);
      if (!p) throw notFound();
      if (await owns(user, p.courseId)) {
        await payments.markOrderFailed(order.id, PRODUCT_MESSAGES.alreadyOwned);
        return back('owned');
      }
      // bought meanwhile in another tab: nothing is captured
      try {
        await payments.takeHold(order.id);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
        await payments.markOrderFailed(order.id, err.message);
        return back('owned');
      }
      // the approval may have outlasted its hold on a spot: take it again before money moves
      try {
        await reserve(p, order);
      } catch {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.soldOut);
        return back('sold_out');
      }
      const provider = payments.providerFor('paypal');
      let charge;
      try {
        charge = await provider.capturePaypalOrder(order.providerRef, `${order.idempotencyKey}:capture`);
      } catch (err) {
        await payments.markOrderFailed(order.id, err instanceof Error ? err.message : PRODUCT_MESSAGES.paypalFailed);
        return back(err instanceof ProviderError && err.code === 'canceled' ? 'canceled' : 'failed');
      }
      if (charge.status !== 'succeeded') {
        await payments.markOrderFailed(order.id, charge.failureMessage ?? PRODUCT_MESSAGES.paypalFailed);
        return back('failed');
      }
      try {
        await settle(order, charge);
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 409) return back('sold_out');
        throw err;
      }
      return orderUrl(order.id);
    },
  };
}
