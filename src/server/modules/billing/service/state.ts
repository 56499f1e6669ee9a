import { and, desc, eq, gt } from 'drizzle-orm';
import { formatMoney } from '#shared/money';
import { lifetimeOfferCents, yearlyOfferCents, type BillingState, type BillingSubscription } from '#shared/billing';
import {
  DUNNING_ENDED_NOTICE_DAYS,
  DUNNING_RETRY_DAYS,
  graceEndsAt,
  nextRetryAt,
  type EndedUnpaid,
  type PastDue,
} from '#shared/dunning';
import { invoices, subscriptions } from '#server/db/schema/index';
import type { SubscriptionRow } from '#server/modules/payments/index';
import type { AuthUser } from '#server/types';
import { courseHoldings, mentorshipHoldings, otherMemberships, subscriptionMembership } from '../holdings.ts';
import type { Once } from './once.ts';
import { cycleOf, paymentKind, type BillingContext } from './shared.ts';

/** What /account/billing shows: the subscription with its offers and anything due, invoices, holdings. */
export function createBillingState(ctx: BillingContext, once: Once) {
  const { db, payments, offers, checkout, providerOf, hasLifetime } = ctx;
  const { useOf } = once;

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

  async function state(user: AuthUser): Promise<BillingState> {
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
  }

  return { state };
}
