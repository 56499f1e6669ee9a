import { and, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client';
import { entitlements, orders, subscriptions } from '#server/db/schema/index';
import { isUniqueViolation } from '#server/lib/db-errors';
import { AppError } from '#server/lib/errors';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { PRODUCT_MESSAGES } from '#shared/products';
import { HOLD_MINUTES, type HoldRule, type OrderRow, type PaymentsContext } from './shared.ts';

/** "At most one" of a kind of order (HoldRule): the holds an unfinished purchase takes and lets go. */
export function createHolds(ctx: PaymentsContext) {
  const { db, ownerOf, findOrder } = ctx;

  const activeEntitlement = (tx: Executor, userId: number, kind: string, forGood = false) =>
    tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, userId),
          eq(entitlements.kind, kind),
          isNull(entitlements.revokedAt),
          forGood ? isNull(entitlements.endsAt) : or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
        ),
      )
      .limit(1)
      .then((rows) => rows.length > 0);

  /** a lifetime bought on the billing page by a subscriber: only a membership for good stops it */
  const isUpgrade = (order: Pick<OrderRow, 'plan' | 'metadata'>) =>
    order.plan === 'lifetime' && (order.metadata.source === 'upgrade' || order.metadata.source === 'retention');

  /** the ledger's own kinds; other owners bring theirs (PaymentsOwner.hold) */
  const ledgerHolds: Record<string, HoldRule> = {
    membership: {
      scope: () => 'membership',
      async owned(tx, order) {
        if (isUpgrade(order)) return activeEntitlement(tx, order.userId, 'membership', true);
        if (await activeEntitlement(tx, order.userId, 'membership')) return true;
        // a paused subscription, or one cancelled but still inside its paid period, is still theirs
        const [sub] = await tx
          .select({ id: subscriptions.id })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, order.userId),
              or(ne(subscriptions.status, 'canceled'), gt(subscriptions.currentPeriodEnd, new Date())),
            ),
          )
          .limit(1);
        return !!sub;
      },
      refusal: COMMERCE_MESSAGES.alreadySubscribed,
    },
    course: {
      // the entitlement a paid course order grants (markOrderPaidInLedger): the course, else the product
      scope: (order) =>
        `course:${typeof order.metadata.courseId === 'number' ? order.metadata.courseId : order.productSlug}`,
      owned: (tx, order) => activeEntitlement(tx, order.userId, ledgerHolds.course!.scope(order)!),
      refusal: PRODUCT_MESSAGES.alreadyOwned,
    },
  };
  const holdRule = (kind: string): HoldRule | null => ledgerHolds[kind] ?? ownerOf(kind)?.hold ?? null;

  /** holds of the member's unfinished purchases that outlived HOLD_MINUTES are let go */
  async function lapseHolds(tx: Executor, userId: number, scope: string) {
    await tx
      .update(orders)
      .set({ hold: null, heldAt: null })
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.hold, scope),
          lt(orders.heldAt, new Date(Date.now() - HOLD_MINUTES * 60_000)),
        ),
      );
  }

  /**
   * The order takes its hold before money moves (a PayPal capture, recording an approved PayPal
   * subscription, a hosted checkout found paid): AppError 409 with the rule's refusal when another
   * purchase of the member holds the same thing or the member already has it. Held already, or a
   * kind without a rule: nothing to do.
   */
  async function takeHold(orderId: number): Promise<void> {
    const order = await findOrder(orderId);
    // only an unfinished order holds anything (a failed one answers its own 409 in markOrderPaidInLedger)
    if (!order || order.hold !== null || (order.status !== 'pending' && order.status !== 'requires_action')) return;
    const rule = holdRule(order.kind);
    const scope = rule?.scope(order) ?? null;
    if (!rule || !scope) return;
    try {
      await db.transaction(async (tx) => {
        await lapseHolds(tx, order.userId, scope);
        await tx.update(orders).set({ hold: scope, heldAt: new Date() }).where(eq(orders.id, order.id));
        if (await rule.owned(tx, order)) throw new AppError('conflict', rule.refusal);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', rule.refusal);
      throw err;
    }
  }

  /** the order's outcome is written (granted, failed, refunded): its hold is let go */
  async function releaseHold(orderId: number, tx: Executor = db) {
    await tx
      .update(orders)
      .set({ hold: null, heldAt: null })
      .where(and(eq(orders.id, orderId), sql`${orders.hold} is not null`));
  }

  return { holdRule, lapseHolds, takeHold, releaseHold };
}
export type Holds = ReturnType<typeof createHolds>;
