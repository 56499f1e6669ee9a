import { and, eq } from 'drizzle-orm';
import type { Executor } from '#server/db/client';
import { orders } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import type { MembershipPlan, ProviderName } from '#shared/commerce';
import type { Holds } from './holds.ts';
import type { OrderRow, PaymentsContext } from './shared.ts';

/** A purchase starts: its pending order (one per idempotency key), its provider ref, and finding it again. */
export function createOrders(ctx: PaymentsContext, holds: Holds) {
  const { db, findOrder } = ctx;
  const { holdRule, lapseHolds } = holds;

  /**
   * Insert a pending order, or answer the existing one for the same idempotency key (a double
   * submit or a retried request is one order). `amountCents` must come from the server's catalogue.
   *
   * `hold: true` (a purchase the provider is about to charge): the order takes its kind's hold in
   * the same transaction (HoldRule), so of two tabs paying at once one gets the order and the
   * other AppError 409 with the page's "already yours" words, before anything is charged.
   */
  async function startOrder(
    user: AuthUser,
    input: {
      kind: 'membership' | 'course' | 'mentorship';
      productSlug: string;
      plan: MembershipPlan | null;
      amountCents: number;
      provider: ProviderName;
      affiliate: string | null;
      idempotencyKey: string;
      metadata?: Record<string, unknown>;
    },
    options: { hold?: boolean } = {},
  ): Promise<{ order: OrderRow; created: boolean }> {
    const values = {
      userId: user.id,
      kind: input.kind,
      productSlug: input.productSlug,
      plan: input.plan,
      amountCents: input.amountCents,
      provider: input.provider,
      affiliate: input.affiliate,
      idempotencyKey: input.idempotencyKey,
      metadata: input.metadata ?? {},
    };
    const existing = async (tx: Executor = db) => {
      const [row] = await tx.select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey)).limit(1);
      if (row && row.userId !== user.id)
        throw new AppError('conflict', 'This request was already used. Please refresh the page and try again.');
      return row ? { order: row, created: false } : null;
    };
    const rule = options.hold ? holdRule(input.kind) : null;
    const scope = rule?.scope(values) ?? null;
    if (!rule || !scope) {
      const [created] = await db
        .insert(orders)
        .values(values)
        .onConflictDoNothing({ target: orders.idempotencyKey })
        .returning();
      if (created) return { order: created, created: true };
      const again = await existing();
      if (!again)
        throw new AppError('conflict', 'This request was already used. Please refresh the page and try again.');
      return again;
    }
    return db.transaction(async (tx) => {
      // the same attempt again (a double click, a retry, the return from 3-D Secure): its own order
      const same = await existing(tx);
      if (same) return same;
      await lapseHolds(tx, user.id, scope);
      // the hold first: a purchase still holding it makes this insert do nothing; one that
      // finished before it is seen by `owned` below (a later statement sees what it wrote)
      const [created] = await tx
        .insert(orders)
        .values({ ...values, hold: scope, heldAt: new Date() })
        .onConflictDoNothing()
        .returning();
      if (!created) {
        // the same key won on another process meanwhile, or another purchase holds the scope
        const raced = await existing(tx);
        if (raced) return raced;
        throw new AppError('conflict', rule.refusal);
      }
      if (await rule.owned(tx, created)) throw new AppError('conflict', rule.refusal);
      return { order: created, created: true };
    });
  }

  /** set the provider's ref on a pending order (PayPal order id, payment intent id) */
  async function attachProviderRef(orderId: number, ref: string): Promise<void> {
    await db.update(orders).set({ providerRef: ref }).where(eq(orders.id, orderId));
  }

  /**
   * Wait (up to 15 s) while another request, the first of a double submit, is still working on
   * this pending order; `ready` ends the wait early (e.g. once it has stored an approval address).
   */
  async function settledOrder(order: OrderRow, ready: (o: OrderRow) => boolean = () => false): Promise<OrderRow> {
    let current = order;
    for (let i = 0; i < 60 && current.status === 'pending' && !ready(current); i++) {
      await new Promise((r) => setTimeout(r, 250));
      current = (await findOrder(order.id)) ?? current;
    }
    return current;
  }

  /** the order a provider ref belongs to (PayPal return: `token`) */
  async function findOrderByRef(provider: ProviderName, ref: string) {
    const [row] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.provider, provider), eq(orders.providerRef, ref)))
      .limit(1);
    return row ?? null;
  }

  return { startOrder, attachProviderRef, settledOrder, findOrderByRef };
}
