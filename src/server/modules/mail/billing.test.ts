import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { instalmentPayments, instalmentPlans, invoices, mailMessages, subscriptions } from '#server/db/schema/index';
import type { TestApp } from '#test/api-harness';
import { issueCreditNote, issueReceipt } from '#server/modules/receipts/ledger';
import { BILLING_SWEEP_JOB } from '#server/modules/mail/index';
import type { TestSmtpServer } from '#test/smtp';
import { startMailApp } from '#test/mail-app';

/**
 * Billing mail: the recurring sweep job reads the billing records (receipts, credit notes, failed
 * invoices and instalments, subscriptions' trial, renewal, cancel and pause) and queues each mail
 * once; each arrives at a real SMTP server. Running the sweep again sends nothing more.
 */
let t: TestApp;
let smtp: TestSmtpServer;
const DAY = 24 * 60 * 60 * 1000;

let mailApp: Awaited<ReturnType<typeof startMailApp>>;
beforeAll(async () => {
  mailApp = await startMailApp();
  ({ t, smtp } = mailApp);
}, 60_000);
afterAll(async () => mailApp?.close());

/** runs the sweep as the schedule does: a job in the queue, worked by this process */
async function sweep() {
  await t.app.deps.jobs.send(BILLING_SWEEP_JOB, {});
}

let subCount = 0;
async function subscription(userId: number, values: Partial<typeof subscriptions.$inferInsert>) {
  const [row] = await t.app.deps.db
    .insert(subscriptions)
    .values({
      userId,
      provider: 'sandbox',
      providerRef: `sub_mail_${++subCount}_${Date.now()}`,
      checkoutSlug: 'membership',
      plan: 'monthly',
      status: 'active',
      priceCents: 2900,
      paymentMethod: 'Visa ending 4242',
      currentPeriodEnd: new Date(Date.now() + 20 * DAY),
      ...values,
    })
    .returning();
  return row!;
}

describe('billing mail', () => {
  it('a receipt for a payment and a credit note for its refund, each with the link to its page, once', async () => {
    const user = await t.createUser({ name: 'Paying Drummer' });
    const db = t.app.deps.db;
    const receipt = await db.transaction((tx) =>
      issueReceipt(tx, {
        source: `test-payment-${user.id}`,
        userId: user.id,
        item: 'Backbeat membership (monthly)',
        amountCents: 2900,
        paymentMethod: 'Visa ending 4242',
        provider: 'sandbox',
      }),
    );
    await db.transaction((tx) => issueCreditNote(tx, receipt!, { source: `test-refund-${user.id}`, amountCents: 900 }));
    await sweep();
    const paid = await smtp.waitFor((m) => m.to.includes(user.email) && /receipt R-/.test(m.subject));
    expect(paid.text).toContain('$29.00');
    expect(paid.text).toMatch(/\/account\/billing\/receipts\/R-\d+/);
    expect(paid.header('list-unsubscribe')).toBeUndefined();
    const refund = await smtp.waitFor((m) => m.to.includes(user.email) && /refund/.test(m.subject));
    expect(refund.subject).toMatch(/refund of \$9\.00 \(CN-\d+\)/);
    expect(refund.text).toMatch(/\/account\/billing\/receipts\/CN-\d+/);
    // later runs find both mailed already: nothing more is queued
    await t.app.deps.mail.sweepBilling();
    await t.app.deps.mail.sweepBilling();
    const rows = await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.userId, user.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['billing.receipt', 'billing.receipt']);
    expect(smtp.to(user.email)).toHaveLength(2);
  });

  it('trial ends in 3 days, yearly renewal in 7 days, a failed payment with the link to fix it', async () => {
    const user = await t.createUser({ name: 'Reminded Drummer' });
    await subscription(user.id, { status: 'trialing', trialEndsAt: new Date(Date.now() + 3 * DAY - 60_000) });
    await subscription(user.id, {
      plan: 'yearly',
      priceCents: 24000,
      currentPeriodEnd: new Date(Date.now() + 7 * DAY - 60_000),
    });
    const failing = await subscription(user.id, { status: 'past_due', graceEndsAt: new Date(Date.now() + 14 * DAY) });
    await t.app.deps.db.insert(invoices).values({
      userId: user.id,
      subscriptionId: failing.id,
      provider: 'sandbox',
      providerRef: `in_failed_${failing.id}`,
      amountCents: 2900,
      status: 'failed',
    });
    await sweep();
    const trial = await smtp.waitFor((m) => m.to.includes(user.email) && /trial ends in 3 days/.test(m.subject));
    expect(trial.text).toContain('$29.00');
    const renewal = await smtp.waitFor((m) => m.to.includes(user.email) && /renews in 7 days/.test(m.subject));
    expect(renewal.text).toContain('$240.00');
    expect(renewal.text).toContain('Visa ending 4242');
    const failed = await smtp.waitFor((m) => m.to.includes(user.email) && /did not go through/.test(m.subject));
    expect(failed.text).toContain(`${t.config.appUrl}/account/billing`);
    expect(failed.text).toContain('You keep your membership until');
  });

  it('cancelled, paused, and resumed once the pause ends', async () => {
    const user = await t.createUser({ name: 'Changing Drummer' });
    await subscription(user.id, { cancelAtPeriodEnd: true, canceledAt: new Date() });
    const paused = await subscription(user.id, { status: 'paused', pausedAt: new Date() });
    await sweep();
    const cancelled = await smtp.waitFor((m) => m.to.includes(user.email) && /is cancelled/.test(m.subject));
    expect(cancelled.text).toContain('You keep access until');
    await smtp.waitFor((m) => m.to.includes(user.email) && /is paused/.test(m.subject));
    await t.app.deps.db
      .update(subscriptions)
      .set({ status: 'active', pausedAt: null })
      .where(eq(subscriptions.id, paused.id));
    await sweep();
    await smtp.waitFor((m) => m.to.includes(user.email) && /active again/.test(m.subject));
  });

  it('mentorship instalments: a receipt for each one paid, a notice for each one that failed', async () => {
    const user = await t.createUser({ name: 'Mentored Drummer' });
    const db = t.app.deps.db;
    const [plan] = await db
      .insert(instalmentPlans)
      .values({
        userId: user.id,
        option: 'three',
        provider: 'sandbox',
        providerRef: `inst_${user.id}`,
        amountCents: 25000,
        instalmentsTotal: 3,
        paymentMethod: 'Visa ending 4242',
      })
      .returning();
    const [payment] = await db
      .insert(instalmentPayments)
      .values({ planId: plan!.id, providerRef: 'in_2', amountCents: 25000, status: 'paid' })
      .returning();
    await db.transaction((tx) =>
      issueReceipt(tx, {
        source: `instalment:${payment!.id}`,
        userId: user.id,
        item: 'Backbeat mentorship: payment 2 of 3',
        amountCents: 25000,
        paymentMethod: 'Visa ending 4242',
        provider: 'sandbox',
      }),
    );
    await db
      .insert(instalmentPayments)
      .values({ planId: plan!.id, providerRef: 'in_3', amountCents: 25000, status: 'failed' });
    await sweep();
    const receipt = await smtp.waitFor((m) => m.to.includes(user.email) && /payment 2 of 3/.test(m.subject));
    expect(receipt.text).toContain('$250.00');
    const failed = await smtp.waitFor(
      (m) => m.to.includes(user.email) && /mentorship payment did not go through/.test(m.subject),
    );
    expect(failed.text).toContain(`${t.config.appUrl}/mentorship/account`);
  });
});
