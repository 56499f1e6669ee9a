import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { checkoutPlans, orders } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import { hasEntitlement } from '#server/lib/guards';
import type { AuthUser } from '#server/types';
import type { SubscriptionState } from '#server/modules/payments/index';
import type { ChargeResult, OrderRow, PaymentsService } from '#server/modules/payments/index';
import { alreadySubscribed, type PlanRow } from './pricing.ts';

export interface CheckoutDeps {
  db: Database;
  payments: PaymentsService;
}

/** What every paying step of the membership checkout does alike: the plan, the order, settling it, the guard. */
export function createCheckoutOrders(deps: CheckoutDeps) {
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
  /** holds the membership, or a subscription that is still theirs (paused, or canceled inside its period) */
  async function isSubscribed(user: AuthUser): Promise<boolean> {
    if (hasEntitlement(user, 'membership')) return true;
    const sub = await payments.currentSubscription(user.id);
    return !!sub;
  }

  async function guardSubscribed(user: AuthUser, key: string) {
    if (!(await isSubscribed(user))) return;
    const [mine] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.idempotencyKey, key), eq(orders.userId, user.id)));
    if (mine && mine.status !== 'failed') return;
    throw alreadySubscribed();
  }

  return {
    planRow,
    readOrder,
    markRequiresAction,
    mergeMetadata,
    settleSubscription,
    settleCharge,
    isSubscribed,
    guardSubscribed,
  };
}
export type CheckoutOrders = ReturnType<typeof createCheckoutOrders>;
