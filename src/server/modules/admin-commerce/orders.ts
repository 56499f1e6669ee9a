import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  ORDER_MESSAGES,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminRefundResult,
} from '#shared/admin-commerce';
import { formatMoney } from '#shared/money';
import type { Database } from '#server/db/client';
import { invoices, orders, users } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import { containing, countAll, pageOfSelect, recordAudit, sortOf, type Actor } from '#server/modules/admin/index';
import { ProviderError } from '#server/modules/payments/index';
import type { PaymentsService } from '#server/modules/payments/index';

type OrderRow = typeof orders.$inferSelect;
export type UserBits = { id: number | null; name: string | null; email: string | null };

export const person = (u: UserBits) => (u.id === null ? null : { id: u.id, name: u.name ?? '', email: u.email ?? '' });

function orderRow(o: OrderRow, u: UserBits): AdminOrderRow {
  return {
    id: o.id,
    buyer: person(u),
    kind: o.kind,
    product: o.productSlug,
    plan: o.plan,
    amount_cents: o.amountCents,
    currency: o.currency,
    provider: o.provider,
    provider_ref: o.providerRef,
    status: o.status,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
  };
}

/** the provider charge of a paid one-time order (a subscription's order has none: its invoices are the provider's) */
const chargeRefOf = (o: OrderRow): string | null =>
  typeof o.metadata.chargeRef === 'string' && o.metadata.chargeRef ? o.metadata.chargeRef : null;

/** The commerce area's orders: the list, one order with its invoices, and refunding a paid one. */
export function createAdminOrders(deps: { db: Database; payments: PaymentsService }) {
  const { db, payments } = deps;

  async function orderDetail(id: number): Promise<AdminOrderDetail> {
    const [row] = await db
      .select({ o: orders, id: users.id, name: users.name, email: users.email })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, id))
      .limit(1);
    if (!row) throw notFound('That order does not exist.');
    const inv = await db.select().from(invoices).where(eq(invoices.orderId, id)).orderBy(asc(invoices.id));
    return {
      ...orderRow(row.o, row),
      failure_message: row.o.failureMessage,
      affiliate: row.o.affiliate,
      payment_method: typeof row.o.metadata.paymentMethod === 'string' ? row.o.metadata.paymentMethod : '',
      invoices: inv.map((i) => ({
        id: i.id,
        amount_cents: i.amountCents,
        status: i.status,
        description: i.description,
        provider_ref: i.providerRef,
        created_at: i.createdAt.toISOString(),
      })),
      refundable: row.o.status === 'paid' && chargeRefOf(row.o) !== null,
    };
  }

  return {
    async orders(
      query: AdminListQuery & { status?: string | undefined; kind?: string | undefined; provider?: string | undefined },
    ): Promise<AdminPage<AdminOrderRow>> {
      const where: SQL[] = [];
      if (query.status) where.push(eq(orders.status, query.status as OrderRow['status']));
      if (query.kind) where.push(eq(orders.kind, query.kind));
      if (query.provider) where.push(eq(orders.provider, query.provider as OrderRow['provider']));
      if (query.q) {
        const l = containing(query.q);
        where.push(
          or(
            ilike(users.name, l),
            ilike(users.email, l),
            ilike(orders.productSlug, l),
            ilike(orders.providerRef, l),
            sql`${orders.metadata}->>'chargeRef' ilike ${l}`,
          )!,
        );
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(query, { created_at: orders.createdAt, amount: orders.amountCents }, 'created_at', 'desc');
      return pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(cond),
        rows: db
          .select({ o: orders, id: users.id, name: users.name, email: users.email })
          .from(orders)
          .leftJoin(users, eq(users.id, orders.userId))
          .where(cond)
          .orderBy(sort.order, desc(orders.id)),
        map: (r) => orderRow(r.o, r),
      });
    },

    order: orderDetail,

    /**
     * Refund a paid order through its provider (idempotency key per order). The order turns refunded
     * and its entitlement is revoked by the provider's charge.refunded event, through the ledger's one
     * webhook dispatch table (the sandbox delivers it at once; a real provider shortly after).
     */
    async refund(actor: Actor, id: number): Promise<AdminRefundResult> {
      const before = await orderDetail(id);
      const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
      if (!order) throw notFound('That order does not exist.');
      if (order.status !== 'paid')
        throw new AppError('conflict', ORDER_MESSAGES.notPaid, { order: [ORDER_MESSAGES.notPaid] });
      const chargeRef = chargeRefOf(order);
      if (!chargeRef) throw new AppError('conflict', ORDER_MESSAGES.noCharge, { order: [ORDER_MESSAGES.noCharge] });
      try {
        await payments.providerNamed(order.provider).refund(chargeRef, `admin-refund:order:${order.id}`);
      } catch (err) {
        if (err instanceof ProviderError)
          throw new AppError('invalid', `The provider refused the refund: ${err.message}`, { order: [err.message] });
        throw err;
      }
      const after = await orderDetail(id);
      await db.transaction(async (tx) =>
        recordAudit(tx, actor, {
          action: 'order.refund',
          targetType: 'order',
          targetId: id,
          summary: `Refunded order #${id} (${order.productSlug}, ${formatMoney(order.amountCents, order.currency)})`,
          before: { status: before.status },
          after: { status: after.status, charge: chargeRef },
        }),
      );
      return { message: after.status === 'refunded' ? ORDER_MESSAGES.refunded : ORDER_MESSAGES.pending, order: after };
    },
  };
}
