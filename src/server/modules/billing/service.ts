import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import {
  COMMERCE_MESSAGES,
  DEFAULT_CHECKOUT,
  DEFAULT_RETENTION_OFFERS,
  RETENTION,
  RETENTION_SETTING,
  type CancelOutcome,
  type ProviderName,
  type RetentionOffers,
} from '#shared/commerce';
import { retentionOffersSchema } from '#shared/retention';
import { formatMoney } from '#shared/money';
import {
  BILLING_MESSAGES,
  lifetimeOfferCents,
  longDate,
  reasonErrors,
  yearlyOfferCents,
  type BillingState,
  type BillingSubscription,
  type Cycle,
  type PaymentKind,
} from '#shared/billing';
import {
  DUNNING_ENDED_NOTICE_DAYS,
  DUNNING_MESSAGES,
  DUNNING_RETRY_DAYS,
  graceEndsAt,
  nextRetryAt,
  type EndedUnpaid,
  type PastDue,
} from '#shared/dunning';
import type { Database } from '#server/db/client';
import {
  cancellationFeedback,
  checkoutPlans,
  invoices,
  orders,
  retentionUses,
  sandboxObjects,
  subscriptions,
} from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import { HOLD_MINUTES, type PaymentsService, type SubscriptionRow } from '#server/modules/payments/index';
import type { PaymentProvider, SubscriptionState } from '#server/modules/payments/index';
import { ProviderError } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';
import { createSettingsService } from '#server/modules/admin/index';
import { courseHoldings, mentorshipHoldings, otherMemberships, subscriptionMembership } from './holdings.ts';
import type { AuthUser } from '#server/types';

export type RetentionAction =
  | 'discount'
  | 'upgrade-yearly'
  | 'upgrade-lifetime'
  | 'pause'
  | 'cancel'
  | 'suspend'
  | 'paypal-cancel'
  | 'lifetime-checkout'
  | 'resume';

interface BillingDeps {
  db: Database;
  payments: PaymentsService;
  users: UserService;
}

export interface RetentionInput {
  reason: string;
  description: string;
  /** client key (Idempotency-Key header or idempotency_key field) */
  clientKey: string | null;
}

/** the upgrades that also exist outside the cancel flow (without `discount=1`: no reason, full price, no feedback) */
const PLAIN_UPGRADES = new Set<RetentionAction>(['upgrade-yearly', 'upgrade-lifetime']);

export interface ActionResult {
  message: string;
  /** lifetime-checkout: where the buyer approves */
  url?: string;
}

const LIVE_STATUSES = new Set(['trialing', 'active', 'past_due']);

/** Card or PayPal: PayPal's own provider, or the sandbox playing PayPal (its payment method says so). */
export function paymentKind(sub: Pick<SubscriptionRow, 'provider' | 'paymentMethod' | 'providerRef'>): PaymentKind {
  if (sub.provider === 'paypal') return 'paypal';
  if (sub.provider === 'stripe') return 'card';
  return /^paypal/i.test(sub.paymentMethod) || /^(I-|sbx_?pp|pp_)/i.test(sub.providerRef) ? 'paypal' : 'card';
}

const cycleOf = (sub: Pick<SubscriptionRow, 'plan'>): Cycle => (sub.plan === 'yearly' ? 'year' : 'month');

/**
 * Billing and the retention flows (docs/product/retention.md). Every change goes THROUGH THE
 * PROVIDER (the subscription's provider kind), then the ledger syncs our row from the provider's
 * answer; the member's reason is stored with the outcome. Calls on one subscription run one at a
 * time in this process, each carries an idempotency key (user + subscription + action + the
 * client's key, or the row's version without one) and each checks the state first, so a double
 * submit changes nothing twice.
 */
export function createBillingService(deps: BillingDeps) {
  const { db, payments } = deps;
  const locks = new Map<number, Promise<unknown>>();
  const settings = createSettingsService({ db });
  /** the retention offers admins set (commerce.ts's RETENTION by default): read on each use */
  const offers = (): Promise<RetentionOffers> =>
    settings.get(RETENTION_SETTING, retentionOffersSchema, DEFAULT_RETENTION_OFFERS);

  /** one change at a time per subscription (a double click waits for the first, then sees its result) */
  async function serial<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(key) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(fn);
    locks.set(key, run);
    try {
      return await run;
    } finally {
      if (locks.get(key) === run) locks.delete(key);
    }
  }

  async function checkout(slug: string) {
    const [row] = await db.select().from(checkoutPlans).where(eq(checkoutPlans.slug, slug)).limit(1);
    return {
      yearly: row?.yearlyPriceCents ?? DEFAULT_CHECKOUT.yearlyPriceCents,
      lifetime: row?.lifetimePriceCents ?? RETENTION.defaultLifetimePriceCents,
    };
  }

  async function subscriptionRow(id: number) {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    return row ?? null;
  }

  /** The member's current subscription of that kind (404 with the product message otherwise). */
  async function owned(user: AuthUser, kind: PaymentKind | null): Promise<SubscriptionRow> {
    const sub = await payments.currentSubscription(user.id);
    if (!sub || sub.userId !== user.id || (kind && paymentKind(sub) !== kind))
      throw notFound(COMMERCE_MESSAGES.noSubscription);
    return sub;
  }

  const refuse = (message: string, field = 'subscription') => new AppError(422, message, { [field]: [message] });

  function validateReason(input: { reason?: string | null; description?: string | null }): {
    reason: string;
    description: string;
  } {
    const errors = reasonErrors(input.reason, input.description);
    if (errors) throw new ValidationError(errors);
    return { reason: input.reason!.trim(), description: (input.description ?? '').trim() };
  }

  const idemKey = (user: AuthUser, sub: SubscriptionRow, action: string, clientKey: string | null) =>
    `billing:${user.id}:${sub.id}:${action}:${clientKey ? `k:${clientKey}` : `v:${sub.updatedAt.getTime()}`}`;

  function providerOf(sub: SubscriptionRow): PaymentProvider {
    return payments.providerFor(paymentKind(sub));
  }

  async function sync(sub: SubscriptionRow, state: SubscriptionState) {
    return payments.syncSubscription(sub.provider as ProviderName, state);
  }

  /** the subscription as the provider has it now, applied here; unchanged when the provider cannot say */
  async function refreshed(sub: SubscriptionRow): Promise<SubscriptionRow> {
    try {
      return (await sync(sub, await providerOf(sub).getSubscription(sub.providerRef))) ?? sub;
    } catch (err) {
      if (err instanceof ProviderError) return sub;
      throw err;
    }
  }

  async function feedback(
    sub: SubscriptionRow,
    userId: number,
    input: { reason: string; description: string },
    outcome: CancelOutcome,
    extra?: Partial<typeof subscriptions.$inferInsert>,
  ) {
    await db.transaction(async (tx) => {
      if (extra)
        await tx
          .update(subscriptions)
          .set({ ...extra, updatedAt: new Date() })
          .where(eq(subscriptions.id, sub.id));
      await tx.insert(cancellationFeedback).values({
        userId,
        subscriptionId: sub.id,
        provider: paymentKind(sub) === 'paypal' ? 'paypal' : 'card',
        cycle: cycleOf(sub),
        reason: input.reason,
        description: input.description,
        outcome,
      });
    });
  }

  /** A provider refusal in the member's words (422), anything else is ours (500). */
  async function viaProvider<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProviderError && err.code !== 'provider_error' && err.code !== 'unsupported')
        throw refuse(err.message, 'payment');
      throw err;
    }
  }

  type OnceKind = (typeof retentionUses.$inferSelect)['kind'];
  const useOf = async (subId: number, kind: OnceKind) =>
    (
      await db
        .select()
        .from(retentionUses)
        .where(and(eq(retentionUses.subscriptionId, subId), eq(retentionUses.kind, kind)))
        .limit(1)
    )[0] ?? null;

  /**
   * Take the subscription's one use of an offer (pause, discount) before the provider is asked:
   * `first` (this request uses it), `again` (this same request, by its client key, already did:
   * answer as it did) or `used`. The primary key (subscription, offer) lets one request through
   * whichever process it reaches. A use whose request never finished frees itself after
   * HOLD_MINUTES (the process stopped while the provider was being asked).
   */
  async function useOnce(
    sub: SubscriptionRow,
    kind: OnceKind,
    clientKey: string | null,
  ): Promise<'first' | 'again' | 'used'> {
    for (let i = 0; i < 60; i++) {
      await db
        .delete(retentionUses)
        .where(
          and(
            eq(retentionUses.subscriptionId, sub.id),
            eq(retentionUses.kind, kind),
            isNull(retentionUses.doneAt),
            lt(retentionUses.createdAt, new Date(Date.now() - HOLD_MINUTES * 60_000)),
          ),
        );
      const [mine] = await db
        .insert(retentionUses)
        .values({ subscriptionId: sub.id, kind, userId: sub.userId, clientKey })
        .onConflictDoNothing()
        .returning();
      if (mine) return 'first';
      const use = await useOf(sub.id, kind);
      if (!use) continue; // its request failed at the provider just now: free again
      if (!clientKey || use.clientKey !== clientKey) return 'used';
      if (use.doneAt) return 'again';
      // the same request (a retry) is still at the provider on another process: its outcome decides
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new AppError(409, 'Your request is still being processed. Please wait a moment and refresh.');
  }
  /** a use already taken, when the offer cannot be taken now (the subscription is not live) */
  async function pastUse(
    sub: SubscriptionRow,
    kind: OnceKind,
    clientKey: string | null,
  ): Promise<'again' | 'used' | null> {
    const use = await useOf(sub.id, kind);
    if (!use) return null;
    return clientKey && use.clientKey === clientKey && use.doneAt ? 'again' : 'used';
  }
  const useDone = (sub: SubscriptionRow, kind: OnceKind) =>
    db
      .update(retentionUses)
      .set({ doneAt: new Date() })
      .where(and(eq(retentionUses.subscriptionId, sub.id), eq(retentionUses.kind, kind)));
  /** the provider refused: the offer was not used after all */
  const useReleased = (sub: SubscriptionRow, kind: OnceKind) =>
    db
      .delete(retentionUses)
      .where(and(eq(retentionUses.subscriptionId, sub.id), eq(retentionUses.kind, kind), isNull(retentionUses.doneAt)));

  /** `fn` with the offer's one use taken; released again when `fn` fails */
  async function usingOnce<T>(sub: SubscriptionRow, kind: OnceKind, fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      await useDone(sub, kind);
      return result;
    } catch (err) {
      await useReleased(sub, kind).catch(() => undefined);
      throw err;
    }
  }

  /** past due: the payment, the retries and the grace period (docs/product/dunning.md) */
  async function pastDueOf(sub: SubscriptionRow): Promise<PastDue | null> {
    if (sub.status !== 'past_due') return null;
    const failedAt = sub.pastDueSince ?? sub.updatedAt;
    const next = sub.nextRetryAt ?? nextRetryAt(failedAt, sub.retriesDone);
    const grace = sub.graceEndsAt ?? (next ? graceEndsAt(next, sub.retriesDone) : failedAt);
    // PayPal keeps the funding source: the member fixes it there
    const fixUrl =
      paymentKind(sub) === 'paypal'
        ? await providerOf(sub)
            .fundingFixUrl(sub.providerRef)
            .catch(() => null)
        : null;
    return {
      amount: sub.pastDueAmountCents ?? sub.priceCents,
      currency: sub.currency,
      failedAt: failedAt.toISOString(),
      retriesDone: sub.retriesDone,
      retriesTotal: DUNNING_RETRY_DAYS.length,
      nextRetryAt: next?.toISOString() ?? null,
      graceEndsAt: grace.toISOString(),
      fixUrl,
    };
  }

  const endedOf = (sub: SubscriptionRow): EndedUnpaid | null =>
    sub.status === 'canceled' && sub.endedReason === 'unpaid'
      ? {
          endedAt: (sub.canceledAt ?? sub.updatedAt).toISOString(),
          amount: sub.pastDueAmountCents ?? sub.priceCents,
          currency: sub.currency,
        }
      : null;

  /** a membership that ended unpaid a short while ago: the billing page still says why */
  async function recentlyEndedUnpaid(userId: number): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.status, 'canceled'),
          eq(subscriptions.endedReason, 'unpaid'),
          gt(subscriptions.updatedAt, new Date(Date.now() - DUNNING_ENDED_NOTICE_DAYS * 86_400_000)),
        ),
      )
      .orderBy(desc(subscriptions.id))
      .limit(1);
    return row ?? null;
  }

  async function dto(sub: SubscriptionRow): Promise<BillingSubscription> {
    const prices = await checkout(sub.checkoutSlug);
    const pauseUsed = !!sub.pausedAt || !!(await useOf(sub.id, 'pause'));
    const o = await offers();
    const cycle = cycleOf(sub);
    let discount: string | null = null;
    if (sub.discountCyclesLeft && sub.discountCyclesLeft > 0) {
      if (sub.discountPercent)
        discount = `${sub.discountPercent}% off the next ${sub.discountCyclesLeft === 1 ? 'payment' : `${sub.discountCyclesLeft} payments`}`;
      else if (sub.discountAmountCents)
        discount = `${formatMoney(sub.discountAmountCents, sub.currency)} off the next ${sub.discountCyclesLeft === 1 ? 'payment' : `${sub.discountCyclesLeft} payments`}`;
    }
    return {
      id: sub.id,
      plan: sub.plan,
      cycle,
      status: sub.status,
      price: sub.priceCents,
      // past due, the next charge is the next retry of the payment due
      nextBillingDate: (sub.status === 'past_due' && sub.nextRetryAt
        ? sub.nextRetryAt
        : sub.currentPeriodEnd
      ).toISOString(),
      paymentMethod: sub.paymentMethod,
      provider: paymentKind(sub),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd || sub.status === 'canceled',
      pausedAt: sub.pausedAt?.toISOString() ?? null,
      canUseDiscount: !sub.discountUsedAt && !(await useOf(sub.id, 'discount')),
      pauseUsed,
      skipPause: pauseUsed || sub.status === 'paused',
      lifetimePrice: prices.lifetime,
      lifetimeOfferPrice: lifetimeOfferCents(prices.lifetime, o),
      yearlyPrice: prices.yearly,
      yearlyOfferPrice: yearlyOfferCents(prices.yearly, o),
      lifetimeFullPrice: prices.lifetime,
      yearlyFullPrice: prices.yearly,
      discount,
      offers: o,
      pastDue: await pastDueOf(sub),
      ended: endedOf(sub),
    };
  }

  async function hasLifetime(userId: number) {
    const [row] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.kind, 'membership'),
          eq(orders.plan, 'lifetime'),
          eq(orders.status, 'paid'),
        ),
      )
      .limit(1);
    return !!row;
  }

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

  async function retention(
    user: AuthUser,
    kind: PaymentKind,
    action: RetentionAction,
    body: { reason?: string | null; description?: string | null; clientKey: string | null; discount?: boolean },
  ): Promise<ActionResult> {
    const first = await owned(user, kind);
    // the cancel flow's upgrades carry discount=1 (reason, retention price, feedback);
    // without it an upgrade is a plain one at the full price, with no reason and nothing stored
    const plain = PLAIN_UPGRADES.has(action) && !body.discount;
    const input = plain ? { reason: '', description: '' } : validateReason(body);
    return serial(first.id, async () => {
      // the state as it is now (a double submit waited for the first and sees its result)
      const sub = (await subscriptionRow(first.id)) ?? first;
      if (sub.userId !== user.id) throw notFound(COMMERCE_MESSAGES.noSubscription);
      // a payment is due: it is settled first (the card on file is the one that failed)
      if (
        sub.status === 'past_due' &&
        (action === 'upgrade-yearly' || action === 'upgrade-lifetime' || action === 'lifetime-checkout')
      )
        throw new AppError(409, DUNNING_MESSAGES.settleFirst);
      const key = idemKey(user, sub, plain ? `${action}-full` : action, body.clientKey);
      const provider = providerOf(sub);
      const cycle = cycleOf(sub);
      const live = LIVE_STATUSES.has(sub.status) && !sub.cancelAtPeriodEnd;
      const notActive = () => refuse(COMMERCE_MESSAGES.noSubscription);
      const o = await offers();

      switch (action) {
        case 'discount': {
          const done = { message: BILLING_MESSAGES.discount(cycle, o) };
          const use =
            live && !sub.discountUsedAt
              ? await useOnce(sub, 'discount', body.clientKey)
              : await pastUse(sub, 'discount', body.clientKey);
          if (use === 'again') return done;
          if (use === 'used' || sub.discountUsedAt) throw new AppError(409, COMMERCE_MESSAGES.discountUsed);
          if (use === null) throw notActive();
          const offer =
            cycle === 'month'
              ? { percentOff: o.monthlyDiscountPercent, cycles: o.monthlyDiscountCycles }
              : { amountOffCents: o.yearlyDiscountCents, cycles: 1 };
          return usingOnce(sub, 'discount', async () => {
            const state = await viaProvider(() => provider.applyDiscount(sub.providerRef, offer, key));
            await sync(sub, state);
            await feedback(sub, user.id, input, 'discount', {
              discountUsedAt: new Date(),
              discountPercent: offer.percentOff ?? null,
              discountAmountCents: offer.amountOffCents ?? null,
              discountCyclesLeft: offer.cycles,
            });
            return done;
          });
        }
        case 'upgrade-yearly': {
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
        case 'upgrade-lifetime': {
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
          const canceled = await viaProvider(() =>
            provider.cancel(sub.providerRef, { atPeriodEnd: false }, `${key}:cancel`),
          );
          await sync(sub, canceled);
          if (!plain) await feedback(sub, user.id, input, 'upgrade-lifetime');
          return { message: BILLING_MESSAGES.upgradeLifetime };
        }
        case 'pause':
        case 'suspend': {
          // a subscription is paused once, ever: paused now, or paused before and resumed, is 409
          const done = { message: BILLING_MESSAGES.pause };
          const use = live ? await useOnce(sub, 'pause', body.clientKey) : await pastUse(sub, 'pause', body.clientKey);
          if (use === 'again') return done;
          if (use === 'used' || (use === null && sub.status === 'paused'))
            throw new AppError(409, BILLING_MESSAGES.pauseUsed);
          if (use === null) throw notActive();
          const feeCents = action === 'pause' ? o.cardPauseFeeCents : o.paypalPauseFeeCents;
          return usingOnce(sub, 'pause', async () => {
            const state = await viaProvider(() => provider.pause(sub.providerRef, { feeCents }, key));
            await sync(sub, state);
            await feedback(sub, user.id, input, 'pause');
            return done;
          });
        }
        case 'cancel':
        case 'paypal-cancel': {
          const endDate = longDate(sub.currentPeriodEnd);
          if (sub.cancelAtPeriodEnd || sub.status === 'canceled') return { message: BILLING_MESSAGES.cancel(endDate) };
          // card: at the period end; PayPal: the provider stops now, our membership lasts to the paid period end
          const atPeriodEnd = action === 'cancel';
          const state = await viaProvider(() => provider.cancel(sub.providerRef, { atPeriodEnd }, key));
          const paidTo = state.currentPeriodEnd > sub.currentPeriodEnd ? state.currentPeriodEnd : sub.currentPeriodEnd;
          await sync(sub, { ...state, currentPeriodEnd: paidTo, cancelAtPeriodEnd: true });
          await feedback(sub, user.id, input, 'cancel', { cancelAtPeriodEnd: true });
          return { message: BILLING_MESSAGES.cancel(longDate(paidTo)) };
        }
        case 'lifetime-checkout': {
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
        default:
          throw notFound();
      }
    });
  }

  return {
    paymentKind,

    async state(user: AuthUser): Promise<BillingState> {
      const sub = (await payments.currentSubscription(user.id)) ?? (await recentlyEndedUnpaid(user.id));
      const rows = await db
        .select()
        .from(invoices)
        .where(eq(invoices.userId, user.id))
        .orderBy(desc(invoices.createdAt), desc(invoices.id))
        .limit(50);
      const lifetime = await hasLifetime(user.id);
      const subscription = sub && sub.userId === user.id ? await dto(sub) : null;
      // a subscription a lifetime purchase replaced is over: the lifetime membership is what they have
      const shown =
        sub && subscription && !(lifetime && sub.status === 'canceled')
          ? [subscriptionMembership(sub, subscription, lifetime)]
          : [];
      return {
        subscription,
        lifetime,
        invoices: rows.map((r) => ({
          id: r.id,
          date: r.createdAt.toISOString(),
          description: r.description,
          amount: r.amountCents,
          currency: r.currency,
          status: r.status,
        })),
        memberships: [...shown, ...(await otherMemberships(db, user.id))],
        mentorships: await mentorshipHoldings(db, user.id),
        courses: await courseHoldings(db, user.id),
      };
    },

    retention,

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
        if (sub.status !== 'past_due') throw new AppError(409, DUNNING_MESSAGES.notPastDue);
        const result = await viaProvider(() =>
          providerOf(sub).retryPayment(sub.providerRef, idemKey(user, sub, 'pay-now', clientKey)),
        );
        await sync(sub, result.state);
        if (!result.paid) throw refuse(result.failureMessage ?? COMMERCE_MESSAGES.cardDeclined, 'payment');
        return { message: DUNNING_MESSAGES.paid };
      });
    },

    /**
     * POST /account/billing/resume: a paused subscription goes on at the provider and here; access
     * comes back. "Welcome back" only once both say it runs again: a subscription that is not
     * paused (by the provider's latest word) is 409, one the provider did not resume is 502.
     */
    async resume(user: AuthUser, clientKey: string | null): Promise<ActionResult> {
      const first = await owned(user, null);
      return serial(first.id, async () => {
        let sub = (await subscriptionRow(first.id)) ?? first;
        // resumed (or paused) at the provider by a change whose event is still on its way: its word counts
        if (sub.status !== 'paused') sub = await refreshed(sub);
        if (sub.status !== 'paused')
          throw new AppError(409, BILLING_MESSAGES.notPaused, { subscription: [BILLING_MESSAGES.notPaused] });
        const state = await viaProvider(() =>
          providerOf(sub).resume(sub.providerRef, idemKey(user, sub, 'resume', clientKey)),
        );
        const after = (await sync(sub, state)) ?? sub;
        if (!LIVE_STATUSES.has(after.status))
          throw new AppError(502, BILLING_MESSAGES.resumeFailed, { subscription: [BILLING_MESSAGES.resumeFailed] });
        return { message: BILLING_MESSAGES.resume };
      });
    },

    /**
     * GET /account/billing/paypal/lifetime-return: capture the approved order, grant the lifetime
     * membership, cancel the old subscription (our access lasts anyway) and store the reason.
     * Returns where to send the browser.
     */
    async lifetimeReturn(user: AuthUser, orderId: number): Promise<string> {
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
        if (fresh!.status !== 'pending' && fresh!.status !== 'requires_action')
          return '/account/billing?lifetime=failed';
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
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
