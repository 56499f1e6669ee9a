import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { entitlements, invoices, receipts, subscriptions, users } from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import { ProviderError } from '#server/modules/payments/index';
import type { PaymentsService } from '#server/modules/payments/index';
import { issueCreditNote, receiptOfInvoice } from '#server/modules/receipts/index';
import { formatMoney } from '#shared/money';
import {
  receiptNumber,
  REFUND_MESSAGES,
  refundEffect,
  type SubscriptionPayments,
  type SubscriptionRefundInput,
  type SubscriptionRefundResult,
} from '#shared/receipts';

/**
 * Refunding a subscription's payment, whole or in part, from the admin console (docs/product/receipts.md).
 * The amount is reserved on the payment before the provider is asked (so two refunds at once never pass
 * what was paid) and given back when the provider refuses; the credit note is written once the money
 * went back. A full refund of the latest payment also ends the membership now and stops its renewals.
 */
export function createSubscriptionRefunds(deps: { db: Database; payments: PaymentsService }) {
  const { db, payments } = deps;

  async function subscriptionOf(id: number) {
    const [row] = await db
      .select({ s: subscriptions, name: users.name })
      .from(subscriptions)
      .leftJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(subscriptions.id, id))
      .limit(1);
    if (!row) throw notFound('That subscription does not exist.');
    return row;
  }

  async function accessEndsAt(subscriptionId: number, fallback: Date): Promise<Date | null> {
    const [row] = await db
      .select({ endsAt: entitlements.endsAt, revokedAt: entitlements.revokedAt })
      .from(entitlements)
      .where(and(eq(entitlements.kind, 'membership'), eq(entitlements.source, `subscription:${subscriptionId}`)))
      .limit(1);
    if (!row) return fallback;
    return row.revokedAt ?? row.endsAt;
  }

  async function list(subscriptionId: number): Promise<SubscriptionPayments> {
    const { s, name } = await subscriptionOf(subscriptionId);
    const rows = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, s.id), inArray(invoices.status, ['paid', 'refunded'])))
      .orderBy(desc(invoices.createdAt), desc(invoices.id));
    const sources = rows.map((r) => `invoice:${r.id}`);
    const numbers = sources.length
      ? await db
          .select({ source: receipts.source, kind: receipts.kind, number: receipts.number })
          .from(receipts)
          .where(inArray(receipts.source, sources))
      : [];
    const bySource = new Map(numbers.map((n) => [n.source, receiptNumber(n.kind, n.number)]));
    const ends = await accessEndsAt(s.id, s.currentPeriodEnd);
    return {
      subscription: {
        id: s.id,
        member: name ?? '',
        status: s.status,
        access_ends_at: ends?.toISOString() ?? null,
        plan: s.plan,
      },
      payments: rows.map((r, i) => ({
        invoice_id: r.id,
        receipt: bySource.get(`invoice:${r.id}`) ?? null,
        description: r.description,
        amount_cents: r.amountCents,
        refunded_cents: r.status === 'refunded' ? Math.max(r.refundedCents, r.amountCents) : r.refundedCents,
        currency: r.currency,
        paid_at: r.createdAt.toISOString(),
        latest: i === 0,
      })),
    };
  }

  async function refund(
    actor: Actor,
    invoiceId: number,
    input: SubscriptionRefundInput,
  ): Promise<SubscriptionRefundResult> {
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
    if (!invoice || invoice.subscriptionId === null) throw notFound('That payment does not exist.');
    const before = await list(invoice.subscriptionId);
    const { s: sub } = await subscriptionOf(invoice.subscriptionId);
    const source = `refund:admin:${invoice.id}:${input.idempotency_key}`;
    const payment = before.payments.find((p) => p.invoice_id === invoice.id)!;
    const endsAt = before.subscription.access_ends_at;
    const live = endsAt !== null && new Date(endsAt).getTime() > Date.now();
    const effectOf = (refundedBefore: number) =>
      refundEffect({
        member: before.subscription.member,
        amountCents: input.amount_cents,
        paidCents: invoice.amountCents,
        refundedCents: refundedBefore,
        latest: payment.latest,
        currency: invoice.currency,
        accessEndsAt: endsAt,
        live,
      });

    // the same request again (a double submit): the refund it made stands
    const [done] = await db.select().from(receipts).where(eq(receipts.source, source)).limit(1);
    if (done) {
      return {
        message: 'This refund was made already.',
        credit_note: receiptNumber(done.kind, done.number),
        effect: effectOf(invoice.refundedCents + done.amountCents),
        payments: await list(invoice.subscriptionId),
      };
    }

    // reserve the amount on the payment (locked: a second refund of it waits and sees this one)
    const reserved = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(invoices).where(eq(invoices.id, invoice.id)).for('update');
      if (!row || row.status === 'failed') throw new AppError('conflict', REFUND_MESSAGES.notPaid);
      const left = row.status === 'refunded' ? 0 : row.amountCents - row.refundedCents;
      if (left <= 0)
        throw new AppError('conflict', REFUND_MESSAGES.nothingLeft, { amount_cents: [REFUND_MESSAGES.nothingLeft] });
      if (input.amount_cents > left)
        throw new ValidationError({ amount_cents: [REFUND_MESSAGES.tooMuch(left, row.currency)] });
      await tx
        .update(invoices)
        .set({ refundedCents: sql`${invoices.refundedCents} + ${input.amount_cents}` })
        .where(eq(invoices.id, row.id));
      return row;
    });
    const effect = effectOf(reserved.refundedCents);
    const full = reserved.refundedCents + input.amount_cents >= reserved.amountCents;

    const provider = payments.providerNamed(sub.provider);
    try {
      const charge = await provider.subscriptionPaymentCharge(
        sub.providerRef,
        invoice.providerRef.endsWith(':initial') ? null : invoice.providerRef,
      );
      await provider.refund(charge, `admin-refund:invoice:${invoice.id}:${input.idempotency_key}`, input.amount_cents);
    } catch (err) {
      // nothing went back: the reservation is given back
      await db
        .update(invoices)
        .set({ refundedCents: sql`greatest(0, ${invoices.refundedCents} - ${input.amount_cents})` })
        .where(eq(invoices.id, invoice.id));
      if (err instanceof ProviderError)
        throw new AppError('invalid', REFUND_MESSAGES.refused(err.message), {
          amount_cents: [REFUND_MESSAGES.refused(err.message)],
        });
      throw err;
    }

    const note = await db.transaction(async (tx) => {
      if (full) await tx.update(invoices).set({ status: 'refunded' }).where(eq(invoices.id, invoice.id));
      const receipt = await receiptOfInvoice(tx, invoice.id);
      const credit = receipt ? await issueCreditNote(tx, receipt, { source, amountCents: input.amount_cents }) : null;
      await recordAudit(tx, actor, {
        action: 'subscription.refund',
        targetType: 'subscription',
        targetId: sub.id,
        summary: `Refunded ${formatMoney(input.amount_cents, invoice.currency)} of ${before.subscription.member}'s payment #${invoice.id}${credit ? ` (credit note ${receiptNumber(credit.kind, credit.number)})` : ''}`,
        before: { refunded_cents: reserved.refundedCents, status: reserved.status },
        after: {
          refunded_cents: reserved.refundedCents + input.amount_cents,
          status: full ? 'refunded' : reserved.status,
          effect,
        },
      });
      return credit;
    });

    if (full && payment.latest && live) {
      // the period the member is in was paid back: the membership ends now and renews no more
      try {
        const state = await provider.cancel(
          sub.providerRef,
          { atPeriodEnd: false },
          `admin-refund-cancel:${invoice.id}`,
        );
        await payments.syncSubscription(sub.provider, { ...state, status: 'canceled' });
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
      }
      await payments.endMembershipNow(sub.id);
    }
    const number = note ? receiptNumber(note.kind, note.number) : null;
    return {
      message: `Refunded ${formatMoney(input.amount_cents, invoice.currency)}${number ? ` (credit note ${number})` : ''}. ${effect}`,
      credit_note: number,
      effect,
      payments: await list(invoice.subscriptionId),
    };
  }

  return { list, refund };
}
