import { eq } from 'drizzle-orm';
import { sandboxObjects } from '#server/db/schema/index';
import { nextRetryAt } from '#shared/dunning';
import { charge, invoice } from './charges.ts';
import { emitSubscription } from './events.ts';
import {
  addInterval,
  clockNow,
  DAY,
  get,
  offset,
  put,
  putSubscription,
  rid,
  type SandboxContext,
  type SubscriptionData,
} from './store.ts';

/**
 * Time passing for subscriptions: renewals, trial ends, pause fees, cancellations at period end, and
 * the retries of a failed renewal on the schedule of DUNNING_RETRY_DAYS (days after the first
 * failure, in clock time) until the last one fails and the subscription is canceled, as Stripe does
 * with its retry settings.
 */

/** the invoice due was paid: the subscription runs again */
function settled(s: SubscriptionData) {
  s.status = 'active';
  s.retryAt = null;
  s.failedAt = null;
  s.retriesDone = 0;
  s.openInvoice = null;
}

/** one attempt on the invoice due (an automatic retry, or the member's "Pay now"); true when paid */
export async function collect(
  ctx: SandboxContext,
  ref: string,
  s: SubscriptionData,
  automatic: boolean,
): Promise<{ ok: boolean; charge: string }> {
  const open = s.openInvoice!;
  const c = await charge(ctx, {
    paymentMethod: s.paymentMethod,
    amountCents: open.amountCents,
    metadata: s.metadata,
    description: s.description,
    offSession: true,
    fundingFails: s.kind === 'paypal' && !!s.fundingFails,
  });
  const retries = (s.retriesDone ?? 0) + (automatic ? 1 : 0);
  if (c.ok) {
    settled(s);
    await putSubscription(ctx.db, ref, s);
    await invoice(ctx, ref, s, open.amountCents, true, c.ref, {
      invoice: open,
      attemptCount: retries + 1,
      nextAttemptAt: null,
    });
    await emitSubscription(ctx, ref, s);
    return { ok: true, charge: c.ref };
  }
  if (!automatic) return { ok: false, charge: c.ref };
  s.retriesDone = retries;
  const next = nextRetryAt(new Date(s.failedAt ?? s.retryAt ?? open.periodStart), retries);
  s.retryAt = next ? next.getTime() : null;
  // the last retry failed: the provider gives up and the subscription ends
  if (!next) s.status = 'canceled';
  await putSubscription(ctx.db, ref, s);
  await invoice(ctx, ref, s, open.amountCents, false, c.ref, {
    invoice: open,
    attemptCount: retries + 1,
    nextAttemptAt: s.retryAt,
  });
  await emitSubscription(ctx, ref, s);
  return { ok: false, charge: c.ref };
}

function discounted(s: SubscriptionData): number {
  if (!s.discount || s.discount.cyclesLeft <= 0) return s.priceCents;
  const d = s.discount;
  const price = d.percentOff
    ? Math.round((s.priceCents * (100 - d.percentOff)) / 100)
    : s.priceCents - (d.amountOffCents ?? 0);
  d.cyclesLeft -= 1;
  if (d.cyclesLeft <= 0) s.discount = null;
  return Math.max(0, price);
}

/** one renewal step of a subscription whose period (or retry) is due at `now` (clock ms) */
async function step(ctx: SandboxContext, ref: string, s: SubscriptionData, now: number): Promise<boolean> {
  if (s.status === 'canceled' || s.status === 'approval_pending' || s.status === 'incomplete') return false;
  if (s.status === 'past_due' && s.retryAt !== null && s.retryAt <= now) {
    s.openInvoice ??= {
      ref: rid('in_'),
      amountCents: s.priceCents,
      periodStart: s.periodStart,
      periodEnd: s.periodEnd,
    };
    await collect(ctx, ref, s, true);
    return true;
  }
  if (s.periodEnd > now) return false;
  if (s.cancelAtPeriodEnd) {
    s.status = 'canceled';
    await putSubscription(ctx.db, ref, s);
    await emitSubscription(ctx, ref, s);
    return true;
  }
  const previousEnd = s.periodEnd;
  const renew = () => {
    s.periodStart = previousEnd;
    s.periodEnd = addInterval(previousEnd, s.interval);
  };
  if (s.status === 'paused') {
    renew();
    if (s.pauseFeeCents > 0) {
      const c = await charge(ctx, {
        paymentMethod: s.paymentMethod,
        amountCents: s.pauseFeeCents,
        metadata: s.metadata,
        description: 'Paused membership',
        offSession: true,
      });
      await putSubscription(ctx.db, ref, s);
      await invoice(ctx, ref, s, s.pauseFeeCents, c.ok, c.ref);
    } else {
      await putSubscription(ctx.db, ref, s);
    }
    await emitSubscription(ctx, ref, s);
    return true;
  }
  // trialing, active or past_due (its retry not yet due): renew
  if (s.status === 'past_due') {
    // a second period went by unpaid: the provider gives up
    s.status = 'canceled';
    await putSubscription(ctx.db, ref, s);
    await emitSubscription(ctx, ref, s);
    return true;
  }
  renew();
  const amount = discounted(s);
  const c = await charge(ctx, {
    paymentMethod: s.paymentMethod,
    amountCents: amount,
    metadata: s.metadata,
    description: s.description,
    offSession: true,
    fundingFails: s.kind === 'paypal' && !!s.fundingFails,
  });
  let open: Parameters<typeof invoice>[6];
  if (c.ok) {
    s.status = 'active';
  } else {
    // past due: retried on the dunning schedule, counted from this failure
    s.status = 'past_due';
    s.failedAt = previousEnd;
    s.retriesDone = 0;
    s.retryAt = nextRetryAt(new Date(previousEnd), 0)!.getTime();
    s.openInvoice = { ref: rid('in_'), amountCents: amount, periodStart: s.periodStart, periodEnd: s.periodEnd };
    open = { invoice: s.openInvoice, attemptCount: 1, nextAttemptAt: s.retryAt };
  }
  await putSubscription(ctx.db, ref, s);
  await invoice(ctx, ref, s, amount, c.ok, c.ref, open);
  await emitSubscription(ctx, ref, s);
  return true;
}

/** move the clock: renewals, failed payments, trial ends, cancellations at period end */
export async function advanceClock(ctx: SandboxContext, days: number) {
  const { db } = ctx;
  const current = await offset(db);
  await put(db, 'clock', 'clock', { offsetMs: current + Math.round(days * DAY) });
  const now = await clockNow(db);
  const rows = await db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'subscription'));
  let steps = 0;
  for (const row of rows) {
    // read fresh before every step: a webhook handler may have changed it (e.g. cancelled an
    // instalment plan after its last payment) while the previous step was delivering events
    for (let i = 0; i < 500; i++) {
      const s = await get<SubscriptionData>(db, row.id, 'subscription');
      if (!s || !(await step(ctx, row.id, s, now))) break;
      steps++;
    }
  }
  return { now: new Date(now), steps };
}
