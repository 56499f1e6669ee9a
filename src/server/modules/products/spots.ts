import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import type { Database } from '#server/db/client';
import { orders, products } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import type { OrderRow } from '#server/modules/payments/index';

export type ProductRow = typeof products.$inferSelect;

/** A pending order holds its spot this long (a card charge takes seconds; a PayPal approval minutes). */
export const RESERVATION_MINUTES = 30;

export const soldOut = () => new AppError('conflict', COMMERCE_MESSAGES.soldOut);

/** A tier's limited spots: the ones pending orders hold, and holding one for an order. */
export function createSpots(deps: { db: Database }) {
  const { db } = deps;

  /** pending orders still holding a spot, per product */
  async function reservations(slugs: string[], exceptOrderId = 0, ex: Pick<Database, 'select'> = db) {
    if (slugs.length === 0) return new Map<string, number>();
    const since = new Date(Date.now() - RESERVATION_MINUTES * 60_000);
    const rows = await ex
      .select({ slug: orders.productSlug, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(
        and(
          eq(orders.kind, 'course'),
          inArray(orders.productSlug, slugs),
          inArray(orders.status, ['pending', 'requires_action']),
          sql`(${orders.metadata} ->> 'reserved') = 'true'`,
          gt(orders.createdAt, since),
          ne(orders.id, exceptOrderId),
        ),
      )
      .groupBy(orders.productSlug);
    return new Map(rows.map((r) => [r.slug, Number(r.n)]));
  }

  /**
   * Hold a spot for this order, under a lock on the product row (one buyer at a time per product):
   * refused with 409 soldOut when paid and held spots already fill the tier.
   */
  async function reserve(p: ProductRow, order: OrderRow) {
    if (p.spots === null) return;
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(products).where(eq(products.slug, p.slug)).for('update');
      if (!row || row.spots === null) return;
      const held = (await reservations([p.slug], order.id, tx)).get(p.slug) ?? 0;
      if (row.sold + held >= row.spots) throw soldOut();
      await tx
        .update(orders)
        .set({ metadata: sql`${orders.metadata} || ${JSON.stringify({ reserved: true })}::jsonb` })
        .where(eq(orders.id, order.id));
    });
  }

  return { reservations, reserve };
}
export type Spots = ReturnType<typeof createSpots>;
