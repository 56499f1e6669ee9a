import { and, eq, gt, inArray, isNotNull, like, lte, sql } from 'drizzle-orm';
import { receiptNumber } from '#shared/receipts';
import type { Database } from '#server/db/client';
import {
  instalmentPayments,
  instalmentPlans,
  invoices,
  mailMessages,
  receipts,
  subscriptions,
} from '#server/db/schema/index';
import type { MailSender } from './types.ts';

/** how far back a billing event still gets its mail (a sweep missed during an outage catches up) */
const EVENT_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Billing mail (docs/mail.md) comes from the billing records themselves, not from each code path that
 * writes them (checkout, webhooks, admin refunds, instalments, the sandbox clock): a recurring job
 * reads what changed and sends each mail with a key naming the event (the receipt's number, the
 * invoice, the subscription and the moment of its change), so every event is mailed once whichever
 * process or run sees it first, and a run that finds nothing new sends nothing.
 */
export async function sweepBillingMail(db: Database, mail: MailSender, now = new Date()) {
  const since = new Date(now.getTime() - EVENT_WINDOW_MS);
  const unsent = (key: ReturnType<typeof sql>) =>
    sql`not exists (select 1 from ${mailMessages} where ${mailMessages.key} = ${key})`;

  // every receipt and credit note
  const docs = await db
    .select()
    .from(receipts)
    .where(
      and(
        gt(receipts.issuedAt, since),
        isNotNull(receipts.userId),
        unsent(
          sql`case when ${receipts.source} like 'instalment:%' then 'billing.instalment-receipt:' else 'billing.receipt:' end || ${receipts.kind} || '-' || ${receipts.number}`,
        ),
      ),
    );
  for (const r of docs) {
    const base = {
      number: receiptNumber(r.kind, r.number),
      refund: r.kind === 'credit_note',
      item: r.item,
      amountCents: r.amountCents,
      currency: r.currency,
      paymentMethod: r.paymentMethod,
      issuedAt: r.issuedAt.toISOString(),
    };
    const key = `${r.kind}-${r.number}`;
    const instalment = r.source.startsWith('instalment:') ? /payment (\d+) of (\d+)/.exec(r.item) : null;
    if (r.source.startsWith('instalment:'))
      await mail.send(
        'billing.instalment-receipt',
        r.userId!,
        { ...base, paid: Number(instalment?.[1] ?? 0), total: Number(instalment?.[2] ?? 0) },
        { key },
      );
    else await mail.send('billing.receipt', r.userId!, base, { key });
  }

  // failed membership payments (each failed invoice once)
  const failed = await db
    .select({ invoice: invoices, sub: subscriptions })
    .from(invoices)
    .innerJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
    .where(
      and(
        eq(invoices.status, 'failed'),
        gt(invoices.createdAt, since),
        unsent(sql`'billing.payment-failed:invoice-' || ${invoices.id}`),
      ),
    );
  for (const { invoice, sub } of failed)
    await mail.send(
      'billing.payment-failed',
      invoice.userId,
      {
        amountCents: invoice.amountCents,
        currency: invoice.currency,
        paymentMethod: sub.paymentMethod,
        graceEndsAt: sub.graceEndsAt?.toISOString() ?? null,
      },
      { key: `invoice-${invoice.id}` },
    );

  // trials ending within 3 days, yearly renewals within 7
  const trials = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'trialing'),
        gt(subscriptions.trialEndsAt, now),
        lte(subscriptions.trialEndsAt, new Date(now.getTime() + 3 * DAY_MS)),
      ),
    );
  for (const s of trials)
    await mail.send(
      'billing.trial-ending',
      s.userId,
      { trialEndsAt: s.trialEndsAt!.toISOString(), amountCents: s.priceCents, currency: s.currency, plan: s.plan },
      { key: `${s.id}-${s.trialEndsAt!.getTime()}` },
    );
  const renewals = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.plan, 'yearly'),
        eq(subscriptions.status, 'active'),
        eq(subscriptions.cancelAtPeriodEnd, false),
        gt(subscriptions.currentPeriodEnd, now),
        lte(subscriptions.currentPeriodEnd, new Date(now.getTime() + 7 * DAY_MS)),
      ),
    );
  for (const s of renewals)
    await mail.send(
      'billing.renewal-coming',
      s.userId,
      {
        renewsAt: s.currentPeriodEnd.toISOString(),
        amountCents: s.priceCents,
        currency: s.currency,
        paymentMethod: s.paymentMethod,
      },
      { key: `${s.id}-${s.currentPeriodEnd.getTime()}` },
    );

  // cancelled and paused (each change once: the moment it happened names it)
  const cancelled = await db
    .select()
    .from(subscriptions)
    .where(and(isNotNull(subscriptions.canceledAt), gt(subscriptions.canceledAt, since)));
  for (const s of cancelled) {
    if (s.status !== 'canceled' && !s.cancelAtPeriodEnd) continue;
    await mail.send(
      'billing.membership',
      s.userId,
      { change: 'cancelled', accessEndsAt: s.status === 'canceled' ? null : s.currentPeriodEnd.toISOString() },
      { key: `cancelled-${s.id}-${s.canceledAt!.getTime()}` },
    );
  }
  const paused = await db
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.status, 'paused'), isNotNull(subscriptions.pausedAt), gt(subscriptions.pausedAt, since)),
    );
  for (const s of paused)
    await mail.send(
      'billing.membership',
      s.userId,
      { change: 'paused', accessEndsAt: null },
      { key: `paused-${s.id}-${s.pausedAt!.getTime()}` },
    );
  // resumed: a subscription whose pause was mailed is running again (once per pause)
  const pauses = await db
    .select({ key: mailMessages.key })
    .from(mailMessages)
    .where(
      and(
        like(mailMessages.key, 'billing.membership:paused-%'),
        gt(mailMessages.createdAt, new Date(now.getTime() - 400 * DAY_MS)),
        sql`not exists (select 1 from ${mailMessages} m2 where m2.key = replace(${mailMessages.key}, ':paused-', ':resumed-'))`,
      ),
    );
  const pausedIds = pauses.map((p) => Number(/paused-(\d+)-/.exec(p.key)?.[1]));
  if (pausedIds.length > 0) {
    const running = await db
      .select()
      .from(subscriptions)
      .where(and(inArray(subscriptions.id, pausedIds), inArray(subscriptions.status, ['active', 'trialing'])));
    for (const s of running) {
      const pause = pauses.find((p) => p.key.startsWith(`billing.membership:paused-${s.id}-`))!;
      await mail.send(
        'billing.membership',
        s.userId,
        { change: 'resumed', accessEndsAt: null },
        { key: pause.key.replace('billing.membership:paused-', 'resumed-') },
      );
    }
  }

  // failed mentorship instalments
  const missed = await db
    .select({ payment: instalmentPayments, plan: instalmentPlans })
    .from(instalmentPayments)
    .innerJoin(instalmentPlans, eq(instalmentPlans.id, instalmentPayments.planId))
    .where(
      and(
        eq(instalmentPayments.status, 'failed'),
        gt(instalmentPayments.createdAt, since),
        unsent(sql`'billing.instalment-failed:' || ${instalmentPayments.id}`),
      ),
    );
  for (const { payment, plan } of missed)
    await mail.send(
      'billing.instalment-failed',
      plan.userId,
      { amountCents: payment.amountCents, currency: 'usd', paymentMethod: plan.paymentMethod },
      { key: String(payment.id) },
    );
}
