import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { COMMERCE_MESSAGES as M, DEFAULT_CHECKOUT, type CheckoutPlan, type MembershipPlan } from '#shared/commerce';
import { joinUrl, orderUrl, type CheckoutAnswer, type OrderStripeAnswer, type OrderSummary } from '#shared/checkout';
import type { Database } from '#server/db/client';
import { checkoutPlans, courses, orders, products, subscriptions } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import { hasEntitlement } from '#server/lib/guards';
import type { AuthUser } from '#server/types';
import {
  cardError,
  ProviderError,
  type ChargeResult,
  type Interval,
  type SubscriptionState,
} from '#server/modules/payments/index';
import type { OrderRow, PaymentsService } from '#server/modules/payments/index';

type PlanRow = typeof checkoutPlans.$inferSelect;

const toDollars = (cents: number) => cents / 100;
const toDollarsOrNull = (cents: number | null) => (cents === null ? null : cents / 100);

/** The checkout plan object as the page reads it (prices in dollars). */
export function planObject(row: PlanRow): CheckoutPlan {
  return {
    slug: row.slug,
    heading: row.heading,
    subheading: row.subheading,
    has_trial: row.hasTrial,
    lifetime_price: toDollars(row.lifetimePriceCents),
    yearly_price: toDollars(row.yearlyPriceCents),
    monthly_price: toDollars(row.monthlyPriceCents),
    lifetime_crossed_out_price: toDollarsOrNull(row.lifetimeCrossedOutCents),
    yearly_crossed_out_price: toDollarsOrNull(row.yearlyCrossedOutCents),
    monthly_crossed_out_price: toDollarsOrNull(row.monthlyCrossedOutCents),
    lifetime_sales_tag: row.lifetimeSalesTag,
    yearly_sales_tag: row.yearlySalesTag,
    monthly_sales_tag: row.monthlySalesTag,
    monthly_title: row.monthlyTitle,
    yearly_trial_days: row.yearlyTrialDays,
    monthly_trial_days: row.monthlyTrialDays,
  };
}

/** The server's price for a plan: from the checkout_plans row, never from the browser. */
export const priceCents = (row: PlanRow, plan: MembershipPlan) =>
  plan === 'monthly' ? row.monthlyPriceCents : plan === 'yearly' ? row.yearlyPriceCents : row.lifetimePriceCents;
export const trialDays = (row: PlanRow, plan: MembershipPlan) =>
  !row.hasTrial ? 0 : plan === 'monthly' ? row.monthlyTrialDays : plan === 'yearly' ? row.yearlyTrialDays : 0;
const intervalOf = (plan: 'monthly' | 'yearly'): Interval => (plan === 'monthly' ? 'month' : 'year');
const planLabel = (plan: MembershipPlan) =>
  plan === 'monthly' ? 'monthly' : plan === 'yearly' ? 'yearly' : 'lifetime';

/** A card refusal: 402 with the provider's words under `errors.card` (the page shows them under the card field). */
export const alreadySubscribed = () => new AppError(409, M.alreadySubscribed);
export const paypalFailed = () => new AppError(502, M.paypalLinkFailed);

/**
 * The idempotency key of one checkout attempt: the user, the checkout, the plan and what the page
 * sent (its Idempotency-Key), hashed so nothing the browser sends is used as is.
 */
export const idempotencyKey = (userId: number, kind: string, checkout: string, plan: string, clientKey: string) =>
  `${kind}_${createHash('sha256').update(`${userId}\u0000${checkout}\u0000${plan}\u0000${clientKey}`).digest('hex').slice(0, 40)}`;

const ACTIVE_SUBSCRIPTION: SubscriptionState['status'][] = ['active', 'trialing'];

export interface CheckoutDeps {
  db: Database;
  payments: PaymentsService;
}

/**
 * The membership checkout (docs/product/membership-checkout.md): prices from checkout_plans, payments through the
 * ledger (app.deps.services.payments) and the configured providers. Every paying call is one order
 * per idempotency key: a double submit or a retry answers what the first did.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  const { db, payments } = deps;

  async function planRow(slug: string): Promise<PlanRow> {
    const [row] = await db
      .select()
      .from(checkoutPlans)
      .where(and(eq(checkoutPlans.slug, slug), eq(checkoutPlans.active, true)));
    if (!row) throw notFound('That checkout does not exist.');
    return row;
  }

  async function readOrder(id: number): Promise<OrderRow | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    return row ?? null;
  }

  /** the ledger has no "requires action" step: a private helper until it does */
  async function markRequiresAction(orderId: number, ref: string) {
    await db
      .update(orders)
      .set({ status: 'requires_action', providerRef: ref })
      .where(and(eq(orders.id, orderId), sql`${orders.status} in ('pending', 'requires_action')`));
  }

  /** remember facts for the confirmation page (payment method, approval link) */
  async function mergeMetadata(orderId: number, extra: Record<string, unknown>) {
    await db
      .update(orders)
      .set({ metadata: sql`${orders.metadata} || ${JSON.stringify(extra)}::jsonb` })
      .where(eq(orders.id, orderId));
  }

  /**
   * A subscription's order: recordSubscription writes the subscription, its first invoice and the
   * membership; the order itself is settled here (paid, not a lifetime grant) when the ledger did not.
   */
  async function settleSubscription(
    user: AuthUser,
    order: OrderRow,
    slug: string,
    provider: OrderRow['provider'],
    state: SubscriptionState,
  ) {
    // the ledger writes the subscription, its first invoice and the membership, and settles the order (idempotent)
    await payments.recordSubscription(user.id, order.id, slug, provider, state);
    await mergeMetadata(order.id, { paymentMethod: state.paymentMethodLabel });
  }

  async function settleCharge(order: OrderRow, charge: ChargeResult) {
    await payments.markOrderPaid(order.id, charge);
    await mergeMetadata(order.id, { paymentMethod: charge.paymentMethodLabel });
  }

  /**
   * Already a member: nothing to pay (409), unless this very attempt is the one that made them a
   * member (the second click of a double submit answers the first's order).
   */
  async function guardSubscribed(user: AuthUser, key: string) {
    if (!(await service.isSubscribed(user))) return;
    const [mine] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.idempotencyKey, key), eq(orders.userId, user.id)));
    if (mine && mine.status !== 'failed') return;
    throw alreadySubscribed();
  }

  const service = {
    /** start-up: the default checkout exists (admins edit it later, #10); never overwritten */
    async ensureDefaultPlan() {
      const d = DEFAULT_CHECKOUT;
      await db
        .insert(checkoutPlans)
        .values({
          slug: d.slug,
          heading: d.heading,
          subheading: d.subheading,
          hasTrial: d.hasTrial,
          monthlyPriceCents: d.monthlyPriceCents,
          yearlyPriceCents: d.yearlyPriceCents,
          lifetimePriceCents: d.lifetimePriceCents,
          monthlyCrossedOutCents: d.monthlyCrossedOutCents,
          yearlyCrossedOutCents: d.yearlyCrossedOutCents,
          lifetimeCrossedOutCents: d.lifetimeCrossedOutCents,
          monthlySalesTag: d.monthlySalesTag,
          yearlySalesTag: d.yearlySalesTag,
          lifetimeSalesTag: d.lifetimeSalesTag,
          monthlyTitle: d.monthlyTitle,
          monthlyTrialDays: d.monthlyTrialDays,
          yearlyTrialDays: d.yearlyTrialDays,
        })
        .onConflictDoNothing({ target: checkoutPlans.slug });
    },

    planRow,

    /** holds the membership, or a subscription that is still theirs (paused, or canceled inside its period) */
    async isSubscribed(user: AuthUser): Promise<boolean> {
      if (hasEntitlement(user, 'membership')) return true;
      const sub = await payments.currentSubscription(user.id);
      return !!sub;
    },

    async checkout(slug: string, user: AuthUser | null): Promise<CheckoutAnswer> {
      const row = await planRow(slug);
      return {
        plan: planObject(row),
        user: user ? { email: user.email, name: user.name } : null,
        subscribed: user ? await service.isSubscribed(user) : false,
        payments: ['card', 'paypal'],
        card_provider: payments.providerFor('card').name,
      };
    },

    async clientSecret(user: AuthUser): Promise<string> {
      const { clientSecret } = await payments.providerFor('card').createCardSetup({
        email: user.email,
        name: user.name,
        idempotencyKey: `setup_${user.id}_${randomUUID()}`,
        metadata: { userId: String(user.id) },
      });
      return clientSecret;
    },

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
          throw new AppError(409, 'Your payment is still being processed. Please wait a moment and refresh.');
        if (order.status !== 'requires_action')
          throw new AppError(409, 'This order can no longer be paid. Please refresh the page and try again.');
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
          throw new AppError(502, err.message, { card: [err.message] });
        }
        throw err;
      }
    },

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

    /**
     * GET /api/order: one of the member's own orders, or their latest paid one of any kind (a
     * membership, a course) / active subscription
     */
    async order(user: AuthUser, orderId: number | null): Promise<OrderSummary | null> {
      let row: OrderRow | null = null;
      if (orderId !== null) {
        row = await readOrder(orderId);
        if (!row || row.userId !== user.id) throw notFound();
      } else {
        const [paid] = await db
          .select()
          .from(orders)
          .where(
            and(eq(orders.userId, user.id), inArray(orders.kind, ['membership', 'course']), eq(orders.status, 'paid')),
          )
          .orderBy(desc(orders.id))
          .limit(1);
        row = paid ?? null;
      }
      const [sub] = row
        ? await db
            .select()
            .from(subscriptions)
            .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.orderId, row.id)))
            .limit(1)
        : await db
            .select()
            .from(subscriptions)
            .where(and(eq(subscriptions.userId, user.id), sql`${subscriptions.status} <> 'canceled'`))
            .orderBy(desc(subscriptions.id))
            .limit(1);
      if (!row && !sub) return null;
      const plan = (row?.plan ?? sub?.plan ?? null) as MembershipPlan | null;
      let course: OrderSummary['course'] = null;
      if (row?.kind === 'course') {
        const [bought] = await db
          .select({ title: products.title, slug: courses.slug })
          .from(products)
          .leftJoin(courses, eq(courses.id, products.courseId))
          .where(eq(products.slug, row.productSlug))
          .limit(1);
        course = { title: bought?.title ?? 'Course', url: bought?.slug ? `/courses/${bought.slug}` : '/courses' };
      }
      const method = typeof row?.metadata?.paymentMethod === 'string' ? row.metadata.paymentMethod : '';
      const amountCents = row?.amountCents ?? sub?.priceCents ?? 0;
      return {
        id: row?.id ?? sub?.orderId ?? 0,
        kind: row?.kind ?? 'membership',
        checkout: row?.productSlug ?? sub?.checkoutSlug ?? '',
        plan,
        amount: amountCents / 100,
        amount_cents: amountCents,
        currency: row?.currency ?? sub?.currency ?? 'usd',
        status: row?.status ?? 'paid',
        provider: row?.provider ?? sub?.provider ?? '',
        payment_method: sub?.paymentMethod || method || (row?.provider === 'paypal' ? 'PayPal' : ''),
        lifetime: plan === 'lifetime',
        created_at: (row?.createdAt ?? sub?.createdAt ?? new Date()).toISOString(),
        paid_at: row?.paidAt ? row.paidAt.toISOString() : null,
        trial_ends_at: sub?.trialEndsAt ? sub.trialEndsAt.toISOString() : null,
        next_billing_date:
          sub && sub.status !== 'canceled' && !sub.cancelAtPeriodEnd ? sub.currentPeriodEnd.toISOString() : null,
        subscription_status: sub?.status ?? null,
        course,
      };
    },
  };
  return service;
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
