import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { instalmentPayments, instalmentPlans, users } from '#server/db/schema/index';
import { escapeHtml } from '#server/lib/html';
import type { SubscriptionState } from '#server/modules/payments/index';
import { issueReceipt } from '#server/modules/receipts/index';
import type { OrderRow, PaymentsService, SubscriptionEvent } from '#server/modules/payments/index';
import { MENTORSHIP_GRACE_DAYS } from '#shared/mentorship';
import type { ProviderName } from '#shared/commerce';
import { graceEndsAt, mentorshipAccess } from './access.ts';
import type { Enrolment, InstalmentPlanRow } from './enrolment.ts';
import { formatMoney } from '#shared/money';

export interface InstalmentsDeps {
  db: Database;
  payments: PaymentsService;
  enrolment: Enrolment;
  log?: { error(obj: unknown, msg?: string): void };
}

type Invoice = Extract<SubscriptionEvent, { invoice: unknown }>['invoice'];

const dateText = (d: Date) =>
  d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * Instalment plans: a provider subscription (PayPal '3'/'6', card 1800/1300/650) that
 * stops after `instalmentsTotal` payments. Its provider events come through the payments ledger's
 * one dispatch table (an owner hook, see routes.ts). Each paid invoice is one instalment_payments
 * row (idempotent by provider ref); the last one cancels the subscription at the provider and
 * completes the plan. A failed payment makes the plan past due (grace period, both sides told);
 * the sweep defaults plans past their grace; a later paid invoice restores the plan.
 */
export function createInstalments(deps: InstalmentsDeps) {
  const { db, payments, enrolment } = deps;

  async function findPlan(provider: ProviderName, ref: string): Promise<InstalmentPlanRow | null> {
    const [row] = await db
      .select()
      .from(instalmentPlans)
      .where(and(eq(instalmentPlans.provider, provider), eq(instalmentPlans.providerRef, ref)))
      .limit(1);
    return row ?? null;
  }

  async function studentName(id: number) {
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
    return row?.name ?? 'A student';
  }

  /** the provider's first invoice of the plan: already counted when the plan was recorded */
  async function isFirstInvoice(plan: InstalmentPlanRow, invoice: Invoice) {
    if (invoice.billingReason) return invoice.billingReason === 'subscription_create';
    // PayPal says nothing: its first sale is the one made around the approval, before any other
    if (plan.provider !== 'paypal') return false;
    const [other] = await db
      .select({ id: instalmentPayments.id })
      .from(instalmentPayments)
      .where(
        and(
          eq(instalmentPayments.planId, plan.id),
          eq(instalmentPayments.status, 'paid'),
          sql`${instalmentPayments.providerRef} not like 'initial:%'`,
        ),
      )
      .limit(1);
    return !other && invoice.periodStart.getTime() < plan.createdAt.getTime() + 60 * 60 * 1000;
  }

  /** cancel a completed plan's subscription at the provider (never charges again) */
  async function stopAtProvider(plan: InstalmentPlanRow) {
    try {
      await payments
        .providerNamed(plan.provider)
        .cancel(plan.providerRef, { atPeriodEnd: false }, `mentorship-plan-complete-${plan.id}`);
    } catch (err) {
      deps.log?.error({ err, plan: plan.id }, 'could not cancel a completed instalment plan at the provider');
    }
  }

  async function invoicePaid(plan: InstalmentPlanRow, invoice: Invoice) {
    if (await isFirstInvoice(plan, invoice)) return;
    const outcome = await db.transaction(async (tx) => {
      const [fresh] = await tx
        .insert(instalmentPayments)
        .values({ planId: plan.id, providerRef: invoice.ref, amountCents: invoice.amountCents, status: 'paid' })
        .onConflictDoNothing()
        .returning();
      if (!fresh) return null; // a replay
      const [locked] = await tx.select().from(instalmentPlans).where(eq(instalmentPlans.id, plan.id)).for('update');
      if (!locked) return null;
      const paid = locked.instalmentsPaid + 1;
      // the first instalment's receipt came with its order (payments' ledger); each later one gets its own here
      if (invoice.amountCents > 0) {
        await issueReceipt(tx, {
          source: `instalment:${fresh.id}`,
          userId: locked.userId,
          item: `Backbeat mentorship: payment ${paid} of ${locked.instalmentsTotal}`,
          amountCents: invoice.amountCents,
          paymentMethod: locked.paymentMethod,
          provider: locked.provider,
          orderId: locked.orderId,
        });
      }
      const completed = paid >= locked.instalmentsTotal;
      // a payment after the provider gave up (canceled) still counts, but does not reopen the plan
      const status = completed ? 'completed' : locked.status === 'canceled' ? 'canceled' : 'active';
      const [updated] = await tx
        .update(instalmentPlans)
        .set({
          instalmentsPaid: paid,
          status,
          pastDueSince: null,
          nextDueAt: completed ? null : invoice.periodEnd,
          updatedAt: new Date(),
        })
        .where(eq(instalmentPlans.id, plan.id))
        .returning();
      const applied = await enrolment.applyAccess(plan.userId, new Date(), tx);
      return { plan: updated!, previous: locked, applied };
    });
    if (!outcome) return;
    const { plan: updated, previous } = outcome;
    if (updated.status === 'completed' && previous.status !== 'completed') {
      await stopAtProvider(updated);
      await enrolment.notifyStudentAndAdmins(
        plan.userId,
        `<p>Your last mentorship payment is in: all <strong>${updated.instalmentsTotal}</strong> payments are complete. Your mentorship is paid in full and yours for good. Thank you!</p>`,
        `<p><strong>${escapeHtml(await studentName(plan.userId))}</strong> paid the last of ${updated.instalmentsTotal} mentorship payments. Their plan is complete.</p>`,
      );
    } else if ((previous.status === 'past_due' || previous.status === 'defaulted') && updated.status === 'active') {
      await enrolment.notifyStudentAndAdmins(
        plan.userId,
        `<p>Thank you: your mentorship payment of <strong>${escapeHtml(formatMoney(invoice.amountCents))}</strong> went through (payment ${updated.instalmentsPaid} of ${updated.instalmentsTotal}). Your mentorship access is active again.</p>`,
        `<p><strong>${escapeHtml(await studentName(plan.userId))}</strong> caught up on their mentorship payments (payment ${updated.instalmentsPaid} of ${updated.instalmentsTotal}). Their access is active again.</p>`,
      );
    }
  }

  async function invoiceFailed(plan: InstalmentPlanRow, invoice: Invoice) {
    // out of order: this invoice was paid already (a retry's success arrived first)
    const [paid] = await db
      .select({ id: instalmentPayments.id })
      .from(instalmentPayments)
      .where(
        and(
          eq(instalmentPayments.planId, plan.id),
          eq(instalmentPayments.providerRef, invoice.ref),
          eq(instalmentPayments.status, 'paid'),
        ),
      )
      .limit(1);
    if (paid) return;
    const [fresh] = await db
      .insert(instalmentPayments)
      .values({ planId: plan.id, providerRef: invoice.ref, amountCents: invoice.amountCents, status: 'failed' })
      .onConflictDoNothing()
      .returning();
    if (!fresh) return;
    const now = new Date();
    const outcome = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(instalmentPlans).where(eq(instalmentPlans.id, plan.id)).for('update');
      if (!locked || locked.status === 'completed' || locked.status === 'canceled') return null;
      const [updated] = await tx
        .update(instalmentPlans)
        .set({
          status: locked.status === 'defaulted' ? 'defaulted' : 'past_due',
          pastDueSince: locked.pastDueSince ?? now,
          updatedAt: now,
        })
        .where(eq(instalmentPlans.id, plan.id))
        .returning();
      await enrolment.applyAccess(plan.userId, now, tx);
      return updated!;
    });
    if (!outcome) return;
    const which = `payment ${outcome.instalmentsPaid + 1} of ${outcome.instalmentsTotal}`;
    const amount = formatMoney(invoice.amountCents);
    const method = outcome.paymentMethod ? ` from ${outcome.paymentMethod}` : '';
    const until = dateText(graceEndsAt(outcome.pastDueSince ?? now));
    const payWith = outcome.provider === 'paypal' ? 'PayPal account' : 'card';
    await enrolment.notifyStudentAndAdmins(
      plan.userId,
      `<p>We could not collect your mentorship payment of <strong>${escapeHtml(amount)}</strong> (${which})${escapeHtml(method)}. Please make sure your ${payWith} can be charged: we retry automatically. Your mentorship access stays open for ${MENTORSHIP_GRACE_DAYS} days, until <strong>${escapeHtml(until)}</strong>; if the payment is still missing then, access pauses until it is paid. Questions? Reply to your mentor or write to us on the contact page.</p>`,
      `<p><strong>${escapeHtml(await studentName(plan.userId))}</strong> missed a mentorship payment of ${escapeHtml(amount)} (${which})${escapeHtml(method)}. The provider retries; their access continues until ${escapeHtml(until)} and then pauses unless the payment arrives.</p>`,
    );
  }

  /** the provider cancelled (the student at PayPal, or the retries ran out) or changed the subscription */
  async function subscriptionChanged(plan: InstalmentPlanRow, state: SubscriptionState, canceled: boolean) {
    if (state.paymentMethodLabel && state.paymentMethodLabel !== plan.paymentMethod) {
      await db
        .update(instalmentPlans)
        .set({ paymentMethod: state.paymentMethodLabel, updatedAt: new Date() })
        .where(eq(instalmentPlans.id, plan.id));
    }
    if (!(canceled || state.status === 'canceled')) return;
    const outcome = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(instalmentPlans).where(eq(instalmentPlans.id, plan.id)).for('update');
      if (!locked || locked.status === 'completed' || locked.status === 'canceled') return null;
      const status = locked.instalmentsPaid >= locked.instalmentsTotal ? 'completed' : 'canceled';
      const [updated] = await tx
        .update(instalmentPlans)
        .set({ status, updatedAt: new Date() })
        .where(eq(instalmentPlans.id, plan.id))
        .returning();
      await enrolment.applyAccess(plan.userId, new Date(), tx);
      return updated!;
    });
    if (!outcome || outcome.status !== 'canceled') return;
    await enrolment.notifyStudentAndAdmins(
      plan.userId,
      `<p>Your mentorship payment plan was cancelled after ${outcome.instalmentsPaid} of ${outcome.instalmentsTotal} payments, so your mentorship access has ended. To come back, contact us and we will set up the remaining payments.</p>`,
      `<p>The mentorship payment plan of <strong>${escapeHtml(await studentName(plan.userId))}</strong> was cancelled at the provider after ${outcome.instalmentsPaid} of ${outcome.instalmentsTotal} payments. Their mentorship access has ended.</p>`,
    );
  }

  const instalments = {
    findPlan,

    /**
     * A new plan after the first instalment was paid (card subscription created, or PayPal
     * subscription approved and active): the plan row and its first payment. Idempotent.
     */
    async recordPlan(
      order: OrderRow,
      input: { option: string; provider: ProviderName; state: SubscriptionState; total: number },
    ): Promise<InstalmentPlanRow> {
      return db.transaction(async (tx) => {
        const [created] = await tx
          .insert(instalmentPlans)
          .values({
            userId: order.userId,
            orderId: order.id,
            option: input.option,
            provider: input.provider,
            providerRef: input.state.ref,
            amountCents: input.state.priceCents || order.amountCents,
            instalmentsTotal: input.total,
            instalmentsPaid: 1,
            status: input.total <= 1 ? 'completed' : 'active',
            paymentMethod: input.state.paymentMethodLabel,
            nextDueAt: input.state.currentPeriodEnd,
          })
          .onConflictDoNothing()
          .returning();
        if (created) {
          await tx
            .insert(instalmentPayments)
            .values({
              planId: created.id,
              providerRef: `initial:${input.state.ref}`,
              amountCents: created.amountCents,
              status: 'paid',
            })
            .onConflictDoNothing();
          return created;
        }
        const [existing] = await tx
          .select()
          .from(instalmentPlans)
          .where(and(eq(instalmentPlans.provider, input.provider), eq(instalmentPlans.providerRef, input.state.ref)));
        return existing!;
      });
    },

    /** the owner hook: a provider subscription event that is not a membership's; true when it is a plan's */
    async handleEvent(provider: ProviderName, event: SubscriptionEvent): Promise<boolean> {
      if ('invoice' in event) {
        const plan = await findPlan(provider, event.invoice.subscriptionRef);
        if (!plan) return false;
        if (event.type === 'invoice.paid') await invoicePaid(plan, event.invoice);
        else await invoiceFailed(plan, event.invoice);
        return true;
      }
      const plan = await findPlan(provider, event.subscription.ref);
      if (!plan) return false;
      await subscriptionChanged(plan, event.subscription, event.type === 'subscription.canceled');
      return true;
    },

    /**
     * The grace sweep: plans past due longer than MENTORSHIP_GRACE_DAYS default (the access rules
     * decide), access ends, the student and every admin are told. Runs on a timer and from tests.
     */
    async sweep(now: Date = new Date()): Promise<number> {
      const due = await db
        .select()
        .from(instalmentPlans)
        .where(and(eq(instalmentPlans.status, 'past_due'), sql`${instalmentPlans.pastDueSince} is not null`));
      let defaulted = 0;
      for (const plan of due) {
        const decision = mentorshipAccess(
          {
            refunded: false,
            plan: {
              status: plan.status,
              pastDueSince: plan.pastDueSince,
              paid: plan.instalmentsPaid,
              total: plan.instalmentsTotal,
            },
          },
          now,
        );
        if (decision.status !== 'defaulted') continue;
        const changed = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(instalmentPlans)
            .set({ status: 'defaulted', updatedAt: now })
            .where(and(eq(instalmentPlans.id, plan.id), eq(instalmentPlans.status, 'past_due')))
            .returning();
          if (!row) return false;
          await enrolment.applyAccess(plan.userId, now, tx);
          return true;
        });
        if (!changed) continue;
        defaulted++;
        const which = `payment ${plan.instalmentsPaid + 1} of ${plan.instalmentsTotal}`;
        await enrolment.notifyStudentAndAdmins(
          plan.userId,
          `<p>Your mentorship payment of <strong>${escapeHtml(formatMoney(plan.amountCents))}</strong> (${which}) is more than ${MENTORSHIP_GRACE_DAYS} days late, so your mentorship access is paused. It comes back as soon as the payment goes through: make sure your ${plan.provider === 'paypal' ? 'PayPal account' : 'card'} can be charged, or contact us to settle it.</p>`,
          `<p><strong>${escapeHtml(await studentName(plan.userId))}</strong> is more than ${MENTORSHIP_GRACE_DAYS} days late with mentorship ${which} (${escapeHtml(formatMoney(plan.amountCents))}). Their mentorship access is paused until it is paid.</p>`,
        );
      }
      return defaulted;
    },

    /** the student's latest plan */
    async planOf(userId: number): Promise<InstalmentPlanRow | null> {
      const [row] = await db
        .select()
        .from(instalmentPlans)
        .where(eq(instalmentPlans.userId, userId))
        .orderBy(desc(instalmentPlans.id))
        .limit(1);
      return row ?? null;
    },
  };
  return instalments;
}
export type Instalments = ReturnType<typeof createInstalments>;
