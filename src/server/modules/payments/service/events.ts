import { and, eq, or, sql } from 'drizzle-orm';
import { invoices, orders, subscriptions } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import { COMMERCE_MESSAGES, type ProviderName } from '#shared/commerce';
import { DUNNING_MESSAGES, DUNNING_RETRY_DAYS } from '#shared/dunning';
import { formatMoney } from '#shared/money';
import type { ProviderEvent } from '../provider.ts';
import type { Ledger } from './ledger.ts';
import { describeSubscription, type PaymentsContext } from './shared.ts';
import type { Subscriptions } from './subscriptions.ts';

type EventOf<T> = ProviderEvent extends infer E
  ? E extends { type: infer U }
    ? T extends U
      ? E
      : never
    : never
  : never;
export type Handler<T extends ProviderEvent['type']> = (provider: ProviderName, event: EventOf<T>) => Promise<void>;
export type EventHandlers = { [T in Exclude<ProviderEvent['type'], 'ignored'>]: Handler<T> };

/** THE dispatch table: one idempotent handler per provider event type */
export function createEventHandlers(ctx: PaymentsContext, ledger: Ledger, subs: Subscriptions): EventHandlers {
  const { deps, db, toOwners, findOrder } = ctx;
  const { markOrderPaid, markOrderFailed, receiptFor, recordRefund } = ledger;
  const { findSubscription, recordFailure, syncSubscription } = subs;

  async function orderForCharge(provider: ProviderName, charge: { ref: string; metadata: Record<string, string> }) {
    const id = Number(charge.metadata?.orderId);
    if (Number.isInteger(id) && id > 0) {
      const order = await findOrder(id);
      if (order && order.provider === provider) return order;
    }
    const [byRef] = await db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.provider, provider),
          or(eq(orders.providerRef, charge.ref), sql`${orders.metadata}->>'chargeRef' = ${charge.ref}`),
        ),
      )
      .limit(1);
    return byRef ?? null;
  }

  return {
    async 'charge.succeeded'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (!order || (order.status !== 'pending' && order.status !== 'requires_action')) return;
      if (event.charge.amountCents !== order.amountCents) return; // not the charge we asked for
      try {
        await markOrderPaid(order.id, {
          ref: event.charge.ref,
          paymentMethodLabel: String(order.metadata.paymentMethod ?? ''),
        });
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
      }
    },
    async 'charge.failed'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (order) await markOrderFailed(order.id, event.charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
    },
    async 'charge.refunded'(provider, event) {
      await recordRefund(provider, event.charge, await orderForCharge(provider, event.charge));
    },
    async 'invoice.paid'(provider, event) {
      const sub = await findSubscription(provider, event.invoice.subscriptionRef);
      if (!sub) return toOwners(provider, event);
      const inv = event.invoice;
      // the first invoice is written by recordSubscription: the same period is the same invoice
      const [same] = await db
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          and(
            eq(invoices.subscriptionId, sub.id),
            eq(invoices.providerRef, `${sub.providerRef}:initial`),
            sql`abs(extract(epoch from (${invoices.periodEnd} - ${inv.periodEnd.toISOString()}::timestamptz))) < 60`,
          ),
        )
        .limit(1);
      if (same) return;
      await db.transaction(async (tx) => {
        // a failed invoice paid on a retry or by "Pay now": the same invoice, paid now
        const [recovered] = await tx
          .update(invoices)
          .set({ status: 'paid' })
          .where(and(eq(invoices.provider, provider), eq(invoices.providerRef, inv.ref), eq(invoices.status, 'failed')))
          .returning();
        await tx
          .update(subscriptions)
          .set({
            pastDueSince: null,
            pastDueAmountCents: null,
            nextRetryAt: null,
            retriesDone: 0,
            graceEndsAt: null,
            updatedAt: new Date(),
          })
          .where(and(eq(subscriptions.id, sub.id), sql`${subscriptions.pastDueSince} is not null`));
        const [invoice] = recovered
          ? [recovered]
          : await tx
              .insert(invoices)
              .values({
                userId: sub.userId,
                subscriptionId: sub.id,
                provider,
                providerRef: inv.ref,
                amountCents: inv.amountCents,
                status: 'paid',
                description: describeSubscription(sub),
                periodStart: inv.periodStart,
                periodEnd: inv.periodEnd,
              })
              .onConflictDoNothing()
              .returning();
        // every payment has its receipt, a recovered one too
        if (invoice) await receiptFor(tx, invoice, sub.paymentMethod);
      });
    },
    async 'invoice.payment_failed'(provider, event) {
      const sub = await findSubscription(provider, event.invoice.subscriptionRef);
      if (!sub) return toOwners(provider, event);
      const inv = event.invoice;
      const [row] = await db
        .insert(invoices)
        .values({
          userId: sub.userId,
          subscriptionId: sub.id,
          provider,
          providerRef: inv.ref,
          amountCents: inv.amountCents,
          status: 'failed',
          description: describeSubscription(sub),
          periodStart: inv.periodStart,
          periodEnd: inv.periodEnd,
        })
        .onConflictDoNothing()
        .returning();
      const due = await recordFailure(sub, inv, !!row);
      if (!row) return;
      // the next retry and the end of the grace period, when the subscription has them (docs/product/dunning.md)
      const grace =
        due?.graceEndsAt && due.nextRetryAt
          ? ` ${DUNNING_MESSAGES.nextRetry({ nextRetryAt: due.nextRetryAt.toISOString(), retriesDone: due.retriesDone, retriesTotal: DUNNING_RETRY_DAYS.length })} ${DUNNING_MESSAGES.grace({ graceEndsAt: due.graceEndsAt.toISOString() })}`
          : '';
      await deps.notifications.notify(sub.userId, {
        body: `<p>We could not collect your membership payment of <strong>${escapeHtml(formatMoney(inv.amountCents))}</strong>${sub.paymentMethod ? ` from ${escapeHtml(sub.paymentMethod)}` : ''}. Please update your payment method on the billing page to keep your membership.${escapeHtml(grace)}</p>`,
        url: '/account/billing',
      });
    },
    async 'subscription.updated'(provider, event) {
      if (!(await syncSubscription(provider, event.subscription))) await toOwners(provider, event);
    },
    async 'subscription.canceled'(provider, event) {
      const before = await findSubscription(provider, event.subscription.ref);
      const after = await syncSubscription(provider, { ...event.subscription, status: 'canceled' });
      if (!after) return toOwners(provider, event);
      // the last retry failed: the member hears that the membership ended, and why
      if (before && before.status !== 'canceled' && after.endedReason === 'unpaid') {
        const ended = {
          endedAt: (after.canceledAt ?? new Date()).toISOString(),
          amount: after.pastDueAmountCents ?? after.priceCents,
          currency: after.currency,
        };
        await deps.notifications.notify(after.userId, {
          body: `<p>${escapeHtml(DUNNING_MESSAGES.ended(ended))}</p>`,
          url: '/account/billing',
        });
      }
    },
  };
}
