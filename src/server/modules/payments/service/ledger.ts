import { and, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client';
import { entitlements, invoices, orders, products } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import { fillReceiptMethod, issueCreditNote, issueReceipt, receiptOfInvoice } from '#server/modules/receipts/index';
import { COMMERCE_MESSAGES, type ProviderName } from '#shared/commerce';
import type { ChargeResult, ProviderEvent } from '../provider.ts';
import type { Holds } from './holds.ts';
import { describeOrder, type OrderRow, type PaymentsContext } from './shared.ts';

type ProviderCharge = Extract<ProviderEvent, { charge: unknown }>['charge'];

/**
 * The records of money that moved for an order: the order paid (its invoice, receipt and
 * entitlement), failed, or refunded (its invoices' credit notes, the entitlement taken back).
 */
export function createLedger(ctx: PaymentsContext, holds: Holds) {
  const { deps, db, ownerOf, providerNamed, findOrder } = ctx;
  const { takeHold, releaseHold } = holds;

  /** a paid charge was written: its receipt, in the same transaction (nothing for a charge of nothing) */
  async function receiptFor(tx: Executor, invoice: typeof invoices.$inferSelect, paymentMethod: string) {
    if (invoice.status !== 'paid' || invoice.amountCents <= 0) return;
    await issueReceipt(tx, {
      source: `invoice:${invoice.id}`,
      userId: invoice.userId,
      item: invoice.description,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      paymentMethod,
      provider: invoice.provider,
      invoiceId: invoice.id,
      orderId: invoice.orderId,
      subscriptionId: invoice.subscriptionId,
      issuedAt: invoice.createdAt,
    });
  }

  /**
   * The money arrived for an order that could not take its hold (the member got the same thing
   * meanwhile through another purchase, or the last spot went to someone else): the order fails,
   * the charge is refunded, and the caller hears 409 with `message`.
   */
  async function refuseCharged(order: OrderRow, chargeRef: string, message: string): Promise<never> {
    await markOrderFailed(order.id, message);
    await db
      .update(orders)
      .set({
        providerRef: sql`coalesce(${orders.providerRef}, ${chargeRef})`,
        metadata: sql`${orders.metadata} || ${JSON.stringify({ chargeRef })}::jsonb`,
      })
      .where(eq(orders.id, order.id));
    await providerNamed(order.provider)
      .refund(chargeRef, `refund:order:${order.id}`)
      .catch(() => undefined);
    throw new AppError('conflict', message);
  }

  async function markOrderFailed(orderId: number, message: string): Promise<OrderRow> {
    const [row] = await db
      .update(orders)
      .set({ status: 'failed', failureMessage: message, hold: null, heldAt: null })
      .where(and(eq(orders.id, orderId), inArray(orders.status, ['pending', 'requires_action'])))
      .returning();
    const order = row ?? (await findOrder(orderId));
    if (!order) throw notFound();
    return order;
  }

  /**
   * markOrderPaid, then the order's owner hears it is paid (every time: its hook is idempotent);
   * the order lets go of its hold once what it grants is written. An order that reaches here
   * without a hold (paid on a provider's page) takes it first, and is refunded when it cannot.
   */
  async function markOrderPaid(
    orderId: number,
    charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>,
  ): Promise<OrderRow> {
    try {
      await takeHold(orderId);
    } catch (err) {
      const unpaid = await findOrder(orderId);
      if (!(err instanceof AppError && err.statusCode === 409) || !unpaid) throw err;
      return refuseCharged(unpaid, charge.ref, err.message);
    }
    const order = await markOrderPaidInLedger(orderId, charge);
    const owner = ownerOf(order.kind);
    if (owner?.orderPaid && order.status === 'paid') await owner.orderPaid(order);
    if (order.status === 'paid' && order.hold !== null) {
      await releaseHold(order.id);
      return { ...order, hold: null, heldAt: null };
    }
    return order;
  }

  async function markOrderPaidInLedger(
    orderId: number,
    charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>,
  ): Promise<OrderRow> {
    const outcome = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) throw notFound();
      if (order.status === 'paid') {
        // the provider's webhook can settle the order before the charge's answer names the card: the
        // receipt learns the method then
        if (charge.paymentMethodLabel) await fillReceiptMethod(tx, order.id, charge.paymentMethodLabel);
        return { order, soldOut: false };
      }
      if (order.status === 'failed' || order.status === 'refunded' || order.status === 'canceled') {
        throw new AppError('conflict', order.failureMessage ?? COMMERCE_MESSAGES.paymentCanceled);
      }
      let entitlement: string | null = null;
      let itemTitle: string | null = null;
      if (order.kind === 'course') {
        const [product] = await tx
          .update(products)
          .set({ sold: sql`${products.sold} + 1` })
          .where(
            and(eq(products.slug, order.productSlug), or(isNull(products.spots), lt(products.sold, products.spots))),
          )
          .returning();
        if (!product) return { order, soldOut: true };
        entitlement = `course:${product.courseId ?? product.slug}`;
        itemTitle = `Course: ${product.title}`;
      } else if (order.kind === 'membership' && order.plan === 'lifetime') {
        entitlement = 'membership';
      } else if (typeof order.metadata.entitlement === 'string') {
        entitlement = order.metadata.entitlement;
      }
      const [paid] = await tx
        .update(orders)
        .set({
          status: 'paid',
          paidAt: new Date(),
          failureMessage: null,
          providerRef: order.providerRef ?? charge.ref,
          metadata: { ...order.metadata, paymentMethod: charge.paymentMethodLabel, chargeRef: charge.ref },
        })
        .where(eq(orders.id, order.id))
        .returning();
      const [invoice] = await tx
        .insert(invoices)
        .values({
          userId: order.userId,
          orderId: order.id,
          provider: order.provider,
          providerRef: charge.ref,
          amountCents: order.amountCents,
          currency: order.currency,
          status: 'paid',
          description:
            typeof order.metadata.description === 'string'
              ? order.metadata.description
              : (itemTitle ?? describeOrder(order)),
        })
        .onConflictDoNothing()
        .returning();
      if (invoice) await receiptFor(tx, invoice, charge.paymentMethodLabel);
      if (entitlement) await deps.users.grantEntitlement(order.userId, entitlement, `order:${order.id}`, null, tx);
      return { order: paid!, soldOut: false };
    });
    if (outcome.soldOut) return refuseCharged(outcome.order, charge.ref, COMMERCE_MESSAGES.soldOut);
    return outcome.order;
  }

  /**
   * The provider refunded a charge: its invoices are refunded with a credit note for what was left,
   * and `found` (the order the charge names), when the charge is the order's own, is refunded with
   * its entitlement taken back and its owner told.
   */
  async function recordRefund(provider: ProviderName, charge: ProviderCharge, found: OrderRow | null) {
    // a subscription's charges carry its order's id too: only the order's own charge refunds the order
    const order = found && (found.providerRef === charge.ref || found.metadata.chargeRef === charge.ref) ? found : null;
    await db.transaction(async (tx) => {
      const refunded = await tx
        .update(invoices)
        .set({ status: 'refunded' })
        .where(and(eq(invoices.provider, provider), eq(invoices.providerRef, charge.ref)))
        .returning();
      for (const invoice of refunded) {
        const receipt = await receiptOfInvoice(tx, invoice.id);
        // the whole charge went back (what an admin refunded of it before has its credit notes already)
        const left = invoice.amountCents - invoice.refundedCents;
        if (receipt && left > 0) {
          await issueCreditNote(tx, receipt, {
            source: `refund:${provider}:${charge.ref}`,
            amountCents: Math.min(left, charge.amountCents || left),
          });
          await tx.update(invoices).set({ refundedCents: invoice.amountCents }).where(eq(invoices.id, invoice.id));
        }
      }
      if (!order) return;
      await tx
        .update(orders)
        .set({ status: 'refunded', hold: null, heldAt: null })
        .where(and(eq(orders.id, order.id), ne(orders.status, 'refunded')));
      await tx
        .update(entitlements)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(entitlements.userId, order.userId),
            eq(entitlements.source, `order:${order.id}`),
            isNull(entitlements.revokedAt),
          ),
        );
    });
    const owner = order ? ownerOf(order.kind) : null;
    if (order && owner?.orderRefunded) await owner.orderRefunded({ ...order, status: 'refunded' });
  }

  return { receiptFor, markOrderFailed, markOrderPaid, recordRefund };
}
export type Ledger = ReturnType<typeof createLedger>;
