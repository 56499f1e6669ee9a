import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client';
import { entitlements, invoices, orders, retentionUses, subscriptions } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import { COMMERCE_MESSAGES, type ProviderName } from '#shared/commerce';
import { graceEndsAt, nextRetryAt } from '#shared/dunning';
import type { PaymentProvider, ProviderEvent, SubscriptionState } from '../provider.ts';
import type { Holds } from './holds.ts';
import type { Ledger } from './ledger.ts';
import {
  describeSubscription,
  isLocalStatus,
  isOlderState,
  stateOrder,
  type LocalStatus,
  type PaymentsContext,
  type SubscriptionRow,
} from './shared.ts';

/**
 * Membership subscriptions: the row, its invoices, and the membership entitlement it grants,
 * following the provider's word (see the entitlement rules on createPaymentsService).
 */
export function createSubscriptions(ctx: PaymentsContext, holds: Holds, ledger: Ledger) {
  const { deps, db } = ctx;
  const { releaseHold } = holds;
  const { receiptFor } = ledger;

  async function setMembership(tx: Executor, sub: SubscriptionRow, endsAt: Date) {
    const source = `subscription:${sub.id}`;
    const [row] = await tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(
        and(eq(entitlements.userId, sub.userId), eq(entitlements.kind, 'membership'), eq(entitlements.source, source)),
      )
      .limit(1);
    if (row) await tx.update(entitlements).set({ endsAt, revokedAt: null }).where(eq(entitlements.id, row.id));
    else await deps.users.grantEntitlement(sub.userId, 'membership', source, endsAt, tx);
  }

  async function currentMembershipEnd(tx: Executor, sub: SubscriptionRow): Promise<Date | null> {
    const [row] = await tx
      .select({ endsAt: entitlements.endsAt })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, sub.userId),
          eq(entitlements.kind, 'membership'),
          eq(entitlements.source, `subscription:${sub.id}`),
        ),
      )
      .limit(1);
    return row?.endsAt ?? null;
  }

  /** ends_at of the subscription's membership after moving from `previous` to the row's state */
  async function membershipEndsAt(tx: Executor, sub: SubscriptionRow, previous: LocalStatus | null): Promise<Date> {
    const now = new Date();
    switch (sub.status) {
      case 'trialing':
      case 'active':
        return sub.currentPeriodEnd;
      case 'past_due':
        // lessons stay open through the grace period (docs/product/dunning.md), not the unpaid period
        return sub.graceEndsAt && sub.graceEndsAt < sub.currentPeriodEnd ? sub.graceEndsAt : sub.currentPeriodEnd;
      case 'paused':
        return now;
      case 'canceled': {
        const existing = (await currentMembershipEnd(tx, sub)) ?? sub.currentPeriodEnd;
        const end = previous === 'paused' || previous === 'past_due' ? now : sub.currentPeriodEnd;
        return end < existing ? end : existing;
      }
    }
  }

  /**
   * A subscription state from the provider (an event, or its answer to our call) is applied in the
   * provider's own order, never by its period end (which the provider moves: a resume, a renewal,
   * a plan change). See docs/product/billing-events.md.
   */
  async function syncSubscription(provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, state.ref)))
        .for('update');
      if (!row) return null;
      if (!isLocalStatus(state.status)) return row;
      // canceled is final at every provider; an older state than the last applied one changes nothing
      if (row.status === 'canceled') return row;
      const asOf = stateOrder(state, row);
      if (isOlderState(asOf, row)) return row;
      const now = new Date();
      // the last retry failed and the provider ended it: the unpaid period was never the member's
      const unpaid = state.status === 'canceled' && (row.status === 'past_due' || row.endedReason === 'unpaid');
      // paid again (or ended): nothing is due any more
      const settled =
        state.status !== 'past_due' ? { pastDueSince: null, nextRetryAt: null, retriesDone: 0, graceEndsAt: null } : {};
      const [updated] = await tx
        .update(subscriptions)
        .set({
          ...settled,
          ...(unpaid ? { endedReason: 'unpaid' as const } : {}),
          status: state.status,
          plan: state.interval === 'year' ? 'yearly' : 'monthly',
          priceCents: state.priceCents,
          paymentMethod: state.paymentMethodLabel || row.paymentMethod,
          currentPeriodEnd: unpaid && state.currentPeriodEnd > now ? now : state.currentPeriodEnd,
          trialEndsAt: state.trialEndsAt,
          cancelAtPeriodEnd: state.cancelAtPeriodEnd,
          canceledAt: state.status === 'canceled' || state.cancelAtPeriodEnd ? (row.canceledAt ?? now) : null,
          pausedAt: state.status === 'paused' ? (row.pausedAt ?? now) : null,
          providerStateAt: asOf.at,
          providerStateSequence: asOf.sequence,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, row.id))
        .returning();
      await setMembership(tx, updated!, await membershipEndsAt(tx, updated!, row.status));
      // however it was paused (here, or at the provider), that was the subscription's one pause
      if (updated!.status === 'paused') {
        await tx
          .insert(retentionUses)
          .values({ subscriptionId: row.id, kind: 'pause', userId: row.userId, doneAt: now })
          .onConflictDoNothing();
      }
      return updated!;
    });
  }

  /**
   * A membership payment failed (the first time or on a retry): what is due, the retries made, the
   * provider's next retry (our schedule when the provider does not say) and the end of the grace
   * period, which also ends the membership's access while the subscription is past due.
   */
  async function recordFailure(
    sub: SubscriptionRow,
    inv: Extract<ProviderEvent, { invoice: unknown }>['invoice'],
    newInvoice: boolean,
  ): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id)).for('update');
      if (!row || row.status === 'canceled') return null;
      const now = new Date();
      const since = row.pastDueSince ?? now;
      const retriesDone =
        inv.attemptCount !== undefined
          ? Math.max(0, inv.attemptCount - 1)
          : row.pastDueSince && newInvoice
            ? row.retriesDone + 1
            : row.retriesDone;
      const next = inv.nextAttemptAt !== undefined ? inv.nextAttemptAt : nextRetryAt(since, retriesDone);
      const [updated] = await tx
        .update(subscriptions)
        .set({
          pastDueSince: since,
          pastDueAmountCents: inv.amountCents,
          retriesDone,
          nextRetryAt: next,
          // no retry left: the grace period is over
          graceEndsAt: next ? graceEndsAt(next, retriesDone) : now,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, row.id))
        .returning();
      if (updated!.status === 'past_due')
        await setMembership(tx, updated!, await membershipEndsAt(tx, updated!, row.status));
      return updated!;
    });
  }

  async function findSubscription(provider: ProviderName, ref: string) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, ref)))
      .limit(1);
    return row ?? null;
  }

  /** a new subscription (after subscribeCard or a PayPal approval): row, first invoice, membership */
  async function recordSubscription(
    userId: number,
    orderId: number | null,
    checkoutSlug: string,
    provider: ProviderName,
    state: SubscriptionState,
  ): Promise<SubscriptionRow> {
    if (!isLocalStatus(state.status)) throw new AppError('conflict', COMMERCE_MESSAGES.cardDeclined);
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(subscriptions)
        .values({
          userId,
          orderId,
          provider,
          providerRef: state.ref,
          checkoutSlug,
          plan: state.interval === 'year' ? 'yearly' : 'monthly',
          status: state.status as LocalStatus,
          priceCents: state.priceCents,
          paymentMethod: state.paymentMethodLabel,
          currentPeriodEnd: state.currentPeriodEnd,
          trialEndsAt: state.trialEndsAt,
          cancelAtPeriodEnd: state.cancelAtPeriodEnd,
          providerStateAt: stateOrder(state).at,
          providerStateSequence: stateOrder(state).sequence,
        })
        .onConflictDoNothing()
        .returning();
      if (!created) return null;
      if (state.status === 'active' && state.priceCents > 0) {
        const periodEnd = state.currentPeriodEnd;
        const periodStart = new Date(periodEnd);
        if (state.interval === 'year') periodStart.setUTCFullYear(periodStart.getUTCFullYear() - 1);
        else periodStart.setUTCMonth(periodStart.getUTCMonth() - 1);
        const [invoice] = await tx
          .insert(invoices)
          .values({
            userId,
            subscriptionId: created.id,
            orderId,
            provider,
            providerRef: `${state.ref}:initial`,
            amountCents: state.priceCents,
            status: 'paid',
            description: describeSubscription(created),
            periodStart,
            periodEnd,
          })
          .onConflictDoNothing()
          .returning();
        if (invoice) await receiptFor(tx, invoice, state.paymentMethodLabel);
      }
      if (orderId !== null) {
        await tx
          .update(orders)
          .set({
            status: 'paid',
            paidAt: new Date(),
            providerRef: sql`coalesce(${orders.providerRef}, ${state.ref})`,
            failureMessage: null,
          })
          .where(and(eq(orders.id, orderId), ne(orders.status, 'paid')));
        // the membership is written in this transaction: the purchase's hold is no longer needed
        await releaseHold(orderId, tx);
      }
      await setMembership(tx, created, await membershipEndsAt(tx, created, null));
      return created;
    });
    if (row) return row;
    // recorded already: bring it up to date instead
    return (await syncSubscription(provider, state)) ?? (await findSubscription(provider, state.ref))!;
  }

  /**
   * An admin refunded the period the member is in: the subscription's membership ends now. Later
   * provider events for the cancelled subscription never move it out again (see membershipEndsAt).
   */
  async function endMembershipNow(subscriptionId: number): Promise<void> {
    await db
      .update(entitlements)
      .set({ endsAt: new Date() })
      .where(
        and(
          eq(entitlements.kind, 'membership'),
          eq(entitlements.source, `subscription:${subscriptionId}`),
          or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
        ),
      );
  }

  /** the member's current subscription (not canceled, or canceled but still in its paid period) */
  async function currentSubscription(userId: number): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          or(ne(subscriptions.status, 'canceled'), gt(subscriptions.currentPeriodEnd, new Date())),
        ),
      )
      .orderBy(desc(subscriptions.id))
      .limit(1);
    return row ?? null;
  }

  /** update the retention discount columns etc. of a subscription row */
  async function updateSubscription(
    id: number,
    values: Partial<
      Pick<
        SubscriptionRow,
        'discountUsedAt' | 'discountPercent' | 'discountAmountCents' | 'discountCyclesLeft' | 'priceCents' | 'plan'
      >
    >,
  ) {
    const [row] = await db
      .update(subscriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(subscriptions.id, id))
      .returning();
    return row ?? null;
  }

  /**
   * A subscription approved at the provider that must not stand, because the member already has what
   * it buys (docs/product/billing-once.md): cancelled at once, and the first payment it took on
   * approval (PayPal without a trial) refunded, so nothing is charged twice. Best effort: the member's
   * answer does not wait on the provider's refusal.
   */
  async function withdrawSubscription(provider: PaymentProvider, ref: string, idempotencyKey: string): Promise<void> {
    await provider.cancel(ref, { atPeriodEnd: false }, idempotencyKey).catch(() => undefined);
    const charge = await provider.subscriptionPaymentCharge(ref, null).catch(() => null);
    if (charge) await provider.refund(charge, `${idempotencyKey}:refund-first-payment`).catch(() => undefined);
  }

  return {
    syncSubscription,
    recordFailure,
    findSubscription,
    recordSubscription,
    endMembershipNow,
    currentSubscription,
    updateSubscription,
    withdrawSubscription,
  };
}
export type Subscriptions = ReturnType<typeof createSubscriptions>;
