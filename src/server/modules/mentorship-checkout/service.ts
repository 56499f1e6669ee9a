import { createHash, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { orders } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { cardError, ProviderError, type ChargeResult, type SubscriptionState } from '#server/modules/payments/index';
import type { OrderRow, PaymentsService } from '#server/modules/payments/index';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import {
  cardPaymentOption,
  MENTORSHIP_CARD_PAYMENTS,
  MENTORSHIP_CHECKOUT_MESSAGES as CM,
  MENTORSHIP_INSTALMENT_PLANS,
  MENTORSHIP_MESSAGES as M,
  type MentorshipCardPayment,
  type MentorshipCheckoutAnswer,
  type MentorshipInstalmentOption,
  type MentorshipOneTimePrice,
  type MentorshipPayAnswer,
} from '#shared/mentorship';
import type { Enrolment } from './enrolment.ts';
import type { Instalments } from './instalments.ts';
import { formatMoney } from '#shared/money';

export interface MentorshipCheckoutDeps {
  db: Database;
  payments: PaymentsService;
  enrolment: Enrolment;
  instalments: Instalments;
}

/** where a finished purchase lands */
export const MENTORSHIP_HOME = '/mentorship';

const PRICE_OPTIONS: Record<MentorshipOneTimePrice, string> = {
  3200: 'onetime',
  1600: 'onetime1600',
  2600: 'onetime2600',
  3900: 'onetime3900',
};
const ACTIVE: SubscriptionState['status'][] = ['active', 'trialing'];

/** one attempt's order key: the user, what they buy and the browser's key, hashed */
const attemptKey = (userId: number, kind: string, option: string, clientKey: string) =>
  `mentorship_${kind}_${createHash('sha256').update(`${userId}\u0000${option}\u0000${clientKey}`).digest('hex').slice(0, 40)}`;

export const alreadyEnrolled = () => new AppError(409, M.alreadyEnrolled);

/**
 * The mentorship checkout (docs/product/mentorship.md): one-time payments on the card
 * provider's hosted checkout, PayPal instalment subscriptions, card charges and card instalment
 * subscriptions at /mentorship/stripe/{payment}. Every paying call is one order per idempotency
 * key (a double submit answers what the first did); amounts come from src/shared/mentorship.ts,
 * never from the browser. Enrolment happens when the order is paid (the ledger's owner hook).
 */
export function createMentorshipCheckoutService(deps: MentorshipCheckoutDeps) {
  const { db, payments, enrolment, instalments } = deps;

  async function readOrder(id: number): Promise<OrderRow | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ?? null;
  }

  async function mergeMetadata(orderId: number, extra: Record<string, unknown>) {
    await db
      .update(orders)
      .set({ metadata: sql`${orders.metadata} || ${JSON.stringify(extra)}::jsonb` })
      .where(eq(orders.id, orderId));
  }

  async function markRequiresAction(orderId: number, ref: string) {
    await db
      .update(orders)
      .set({ status: 'requires_action', providerRef: ref })
      .where(and(eq(orders.id, orderId), sql`${orders.status} in ('pending', 'requires_action')`));
  }

  /** holds the mentorship (a mentorships row with access, or the entitlement itself, e.g. a demo student) */
  async function isEnrolled(user: AuthUser): Promise<boolean> {
    return user.entitlements.includes('mentorship') || (await enrolment.isEnrolled(user.id));
  }

  /**
   * Before paying: this attempt's order when it is already paid (a repeated submit answers it),
   * else 409 when the buyer already is a student; else null (go on).
   */
  async function guard(user: AuthUser, key: string): Promise<OrderRow | null> {
    const [mine] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.idempotencyKey, key), eq(orders.userId, user.id)))
      .limit(1);
    if (mine?.status === 'paid') return mine;
    if (await isEnrolled(user)) throw alreadyEnrolled();
    return null;
  }

  /** a hosted checkout at the card provider (one-time prices, financing) */
  async function hostedCheckout(
    user: AuthUser,
    input: {
      option: string;
      amountCents: number;
      methods: 'card' | 'financing';
      back: string;
      clientKey: string | null;
    },
  ): Promise<{ url: string }> {
    const card = payments.providerFor('card');
    const key = attemptKey(user.id, 'hosted', input.option, input.clientKey ?? randomUUID());
    if (await guard(user, key)) return { url: MENTORSHIP_HOME };
    const { order, created } = await payments.startOrder(user, {
      kind: 'mentorship',
      productSlug: input.option,
      plan: null,
      amountCents: input.amountCents,
      provider: card.name,
      affiliate: null,
      idempotencyKey: key,
      metadata: {
        option: input.option,
        paymentType: input.methods === 'financing' ? 'financing' : 'card',
        description: `Backbeat mentorship (${formatMoney(input.amountCents)})`,
      },
    });
    if (!created) {
      const current = await payments.settledOrder(order, (o) => typeof o.metadata?.checkoutUrl === 'string');
      if (current.status === 'paid') return { url: MENTORSHIP_HOME };
      const url = current.metadata?.checkoutUrl;
      if (typeof url === 'string' && current.status === 'pending') return { url };
      throw new AppError(502, CM.checkoutFailed);
    }
    try {
      const approval = await card.createHostedCheckout({
        amountCents: input.amountCents,
        description: `Backbeat mentorship (${formatMoney(input.amountCents)})`,
        successUrl: `/mentorship/checkout/complete?order=${order.id}`,
        cancelUrl: `${input.back}?checkout=cancelled`,
        methods: input.methods,
        email: user.email,
        idempotencyKey: key,
        metadata: { orderId: String(order.id), userId: String(user.id), mentorship: input.option },
      });
      await payments.attachProviderRef(order.id, approval.ref);
      await mergeMetadata(order.id, { checkoutUrl: approval.url, back: input.back });
      return { url: approval.url };
    } catch (err) {
      await payments
        .markOrderFailed(order.id, err instanceof Error ? err.message : CM.checkoutFailed)
        .catch(() => undefined);
      if (err instanceof ProviderError || !(err instanceof AppError)) throw new AppError(502, CM.checkoutFailed);
      throw err;
    }
  }

  const service = {
    /** GET /api/mentorship/checkout */
    async checkout(user: AuthUser | null): Promise<MentorshipCheckoutAnswer> {
      return {
        user: user ? { name: user.name, email: user.email } : null,
        enrolled: user ? await isEnrolled(user) : false,
      };
    },

    /** POST /mentorship/create-checkout */
    createCheckout(user: AuthUser, input: { price: MentorshipOneTimePrice; clientKey: string | null }) {
      return hostedCheckout(user, {
        option: PRICE_OPTIONS[input.price],
        amountCents: input.price * 100,
        methods: 'card',
        back: '/mentorship/checkout',
        clientKey: input.clientKey,
      });
    },

    /** POST /mentorship/stripe/checkout: the financing option (3,900) */
    financeCheckout(user: AuthUser, input: { clientKey: string | null }) {
      return hostedCheckout(user, {
        option: 'finance',
        amountCents: MENTORSHIP_CARD_PAYMENTS.finance.amountCents,
        methods: 'financing',
        back: '/mentorship/stripe/finance',
        clientKey: input.clientKey,
      });
    },

    /**
     * GET /mentorship/checkout/complete?order=: the buyer is back from the hosted checkout. Verify
     * with the provider, mark the order paid (which enrols), and answer where to go.
     */
    async complete(user: AuthUser, orderId: number): Promise<string> {
      const order = await readOrder(orderId);
      if (!order || order.userId !== user.id || order.kind !== 'mentorship') throw notFound();
      const back = typeof order.metadata?.back === 'string' ? order.metadata.back : '/mentorship/checkout';
      if (order.status === 'paid') {
        await enrolment.enrol(order);
        return MENTORSHIP_HOME;
      }
      if ((order.status !== 'pending' && order.status !== 'requires_action') || !order.providerRef) {
        // refused because another purchase enrolled them first (and refunded): the checkout says they are a student
        return order.failureMessage === M.alreadyEnrolled && (await enrolment.isEnrolled(user.id))
          ? back
          : `${back}?checkout=failed`;
      }
      const card = payments.providerNamed(order.provider);
      let charge: ChargeResult;
      try {
        charge = await card.getHostedCheckout(order.providerRef);
      } catch {
        return `${back}?checkout=failed`;
      }
      if (charge.status === 'succeeded') {
        try {
          await payments.markOrderPaid(order.id, charge);
        } catch (err) {
          // enrolled through another purchase meanwhile: this payment was refunded, and the
          // checkout page says they are a student already
          if (err instanceof AppError && err.statusCode === 409) return back;
          throw err;
        }
        return MENTORSHIP_HOME;
      }
      if (charge.status === 'failed')
        await payments.markOrderFailed(order.id, charge.failureMessage ?? CM.checkoutFailed);
      return `${back}?checkout=${charge.status === 'failed' ? 'failed' : 'cancelled'}`;
    },

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
        throw new AppError(502, M.checkoutLinkFailed);
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
        throw new AppError(502, M.checkoutLinkFailed);
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
        throw new AppError(409, M.instalmentPlanFailed);
      const option = order.productSlug as MentorshipInstalmentOption;
      let state: SubscriptionState;
      try {
        state = await paypal.getSubscription(input.agreementId);
      } catch {
        throw new AppError(502, M.instalmentPlanFailed);
      }
      if (state.status === 'approval_pending') throw new AppError(409, CM.notApproved);
      if (!ACTIVE.includes(state.status)) {
        await payments.markOrderFailed(order.id, M.instalmentPlanFailed);
        throw new AppError(402, M.instalmentPlanFailed);
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
        if (order.status === 'pending') throw new AppError(409, M.paymentPending);
        if (order.status !== 'requires_action')
          throw new AppError(409, 'This payment can no longer be made. Please go back and try again.');
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
            throw new AppError(502, err.message, { card: [err.message] });
          throw cardError(err.message);
        }
        throw err;
      }
    },

    /** the ledger's owner hook: a mentorship order is paid → enrol (idempotent) */
    async orderPaid(order: OrderRow) {
      await enrolment.enrol(order);
    },

    /** the ledger's owner hook: refunded → the access rules end access */
    async orderRefunded(order: OrderRow) {
      await enrolment.applyAccess(order.userId);
    },
  };
  return service;
}
export type MentorshipCheckoutService = ReturnType<typeof createMentorshipCheckoutService>;
