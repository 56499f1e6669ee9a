import type { Database } from '#server/db/client';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { ProviderError, type Interval, type PaymentProvider } from '../provider.ts';
import { charge, invoice } from './charges.ts';
import { emitSubscription, toState } from './events.ts';
import {
  addInterval,
  clockNow,
  DAY,
  get,
  must,
  once,
  put,
  putSubscription,
  rid,
  subscription,
  type PaymentMethodData,
  type SandboxContext,
  type SubscriptionData,
} from './store.ts';

/**
 * Subscriptions by card, and what a member does with a subscription of either kind: read it, take a
 * retention discount, change plan, pause, resume, cancel. Renewals are renewals.ts's.
 */

export async function newSubscription(
  db: Database,
  input: {
    kind: 'card' | 'paypal';
    paymentMethod: string | null;
    label: string;
    priceCents: number;
    interval: Interval;
    trialDays: number;
    description: string;
    metadata: Record<string, string>;
    status: SubscriptionData['status'];
    returnUrl?: string;
    cancelUrl?: string;
  },
): Promise<[string, SubscriptionData]> {
  const now = await clockNow(db);
  const trialEnd = input.trialDays > 0 ? now + input.trialDays * DAY : null;
  const s: SubscriptionData = {
    kind: input.kind,
    status: input.status,
    interval: input.interval,
    priceCents: input.priceCents,
    periodStart: now,
    periodEnd: trialEnd ?? addInterval(now, input.interval),
    trialEndsAt: trialEnd,
    trialDays: input.trialDays,
    cancelAtPeriodEnd: false,
    paymentMethod: input.paymentMethod,
    label: input.label,
    metadata: input.metadata,
    pauseFeeCents: 0,
    discount: null,
    retryAt: null,
    description: input.description,
    ...(input.returnUrl ? { returnUrl: input.returnUrl, cancelUrl: input.cancelUrl } : {}),
  };
  const ref = input.kind === 'card' ? rid('sub_') : rid('I-', 8).toUpperCase();
  await putSubscription(db, ref, s);
  return [ref, s];
}

export function subscriptionMethods(
  ctx: SandboxContext,
): Pick<
  PaymentProvider,
  'subscribeCard' | 'getSubscription' | 'applyDiscount' | 'changePlan' | 'pause' | 'resume' | 'cancel'
> {
  const { db } = ctx;
  return {
    /** ProviderError('card_declined') when the first payment is declined */
    async subscribeCard(input) {
      const pm = await must<PaymentMethodData>(db, input.paymentMethod, 'payment_method');
      if (!pm.usable)
        throw new ProviderError('authentication_required', 'This card needs authentication before it can be used.');
      const label = `${pm.brand} ending ${pm.last4}`;
      const ref = await once(db, `subscribe:${input.idempotencyKey}`, async () => {
        if (input.trialDays <= 0 && pm.failsLater)
          throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
        const [ref, s] = await newSubscription(db, {
          kind: 'card',
          paymentMethod: input.paymentMethod,
          label,
          priceCents: input.priceCents,
          interval: input.interval,
          trialDays: input.trialDays,
          description: input.description,
          metadata: input.metadata,
          status: input.trialDays > 0 ? 'trialing' : 'active',
        });
        if (input.trialDays <= 0) {
          const c = await charge(ctx, {
            paymentMethod: input.paymentMethod,
            amountCents: input.priceCents,
            metadata: input.metadata,
            description: input.description,
            offSession: false,
          });
          await put(db, ref, 'subscription', { ...s, firstCharge: c.ref });
        }
        return ref;
      });
      const s = await subscription(db, ref);
      await emitSubscription(ctx, ref, s);
      return toState(db, ref, s);
    },

    async getSubscription(ref) {
      return toState(db, ref, await subscription(db, ref));
    },

    async applyDiscount(ref, discount, idempotencyKey) {
      const s = await subscription(db, ref);
      const done = await get(db, `idem:discount:${idempotencyKey}`, 'idempotency');
      if (!done) {
        s.discount = {
          ...(discount.percentOff ? { percentOff: discount.percentOff } : {}),
          ...(discount.amountOffCents ? { amountOffCents: discount.amountOffCents } : {}),
          cyclesLeft: discount.cycles,
        };
        await putSubscription(db, ref, s);
        await put(db, `idem:discount:${idempotencyKey}`, 'idempotency', { ref });
        return emitSubscription(ctx, ref, s);
      }
      return toState(db, ref, s);
    },

    async changePlan(ref, plan, idempotencyKey) {
      const s = await subscription(db, ref);
      const done = await get(db, `idem:plan:${idempotencyKey}`, 'idempotency');
      if (!done) {
        const now = await clockNow(db);
        // the first period at the new price, less a one-off amount (the upgrade offer); later renewals pay the full price
        const firstCents = Math.max(0, plan.priceCents - (plan.firstInvoiceAmountOffCents ?? 0));
        const c = await charge(ctx, {
          paymentMethod: s.paymentMethod,
          amountCents: firstCents,
          metadata: s.metadata,
          description: s.description,
          offSession: true,
        });
        if (!c.ok) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
        Object.assign(s, {
          priceCents: plan.priceCents,
          interval: plan.interval,
          periodStart: now,
          periodEnd: addInterval(now, plan.interval),
          status: 'active',
          trialEndsAt: null,
          cancelAtPeriodEnd: false,
          retryAt: null,
        });
        await putSubscription(db, ref, s);
        await put(db, `idem:plan:${idempotencyKey}`, 'idempotency', { ref });
        // the plan change first, so the invoice is filed under the new plan
        const state = await emitSubscription(ctx, ref, s);
        await invoice(ctx, ref, s, firstCents, true, c.ref);
        return state;
      }
      return toState(db, ref, s);
    },

    async pause(ref, opts) {
      const s = await subscription(db, ref);
      if (s.status === 'canceled') throw new ProviderError('provider_error', 'This subscription has been canceled.');
      if (s.status !== 'paused') {
        s.status = 'paused';
        s.pauseFeeCents = opts.feeCents;
        s.cancelAtPeriodEnd = false;
        await putSubscription(db, ref, s);
        return emitSubscription(ctx, ref, s);
      }
      return toState(db, ref, s);
    },

    async resume(ref) {
      const s = await subscription(db, ref);
      if (s.status === 'paused') {
        const now = await clockNow(db);
        s.status = 'active';
        s.pauseFeeCents = 0;
        if (s.periodEnd <= now) {
          s.periodStart = now;
          s.periodEnd = addInterval(now, s.interval);
        }
        await putSubscription(db, ref, s);
        return emitSubscription(ctx, ref, s);
      }
      return toState(db, ref, s);
    },

    async cancel(ref, opts) {
      const s = await subscription(db, ref);
      if (s.status === 'canceled') return toState(db, ref, s);
      if (opts.atPeriodEnd && s.status !== 'paused' && s.status !== 'approval_pending') s.cancelAtPeriodEnd = true;
      else s.status = 'canceled';
      await putSubscription(db, ref, s);
      return emitSubscription(ctx, ref, s);
    },
  };
}
