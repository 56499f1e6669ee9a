import { and, eq, inArray } from 'drizzle-orm';
import { sandboxObjects } from '#server/db/schema/index';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import type { SandboxApproval } from '#shared/payments-sandbox';
import { ProviderError, type Approval, type ChargeResult, type PaymentProvider } from '../provider.ts';
import { charge } from './charges.ts';
import { emit, emitSubscription } from './events.ts';
import { collect } from './renewals.ts';
import { newSubscription } from './subscriptions.ts';
import {
  addInterval,
  clockNow,
  DAY,
  get,
  must,
  once,
  PAYPAL_BUYER,
  put,
  putSubscription,
  rid,
  subscription,
  withParams,
  type Obj,
  type PaypalOrderData,
  type SandboxContext,
  type SubscriptionData,
} from './store.ts';

/**
 * PayPal as the sandbox plays it: orders and subscriptions the buyer approves (or cancels) on the
 * sandbox's approval page (/sandbox/paypal/approve/:ref) before they are captured or start. A past-due
 * subscription's buyer approves it again there to fix the funding and pay what is due.
 */

export function paypalMethods(
  ctx: SandboxContext,
): Pick<PaymentProvider, 'createPaypalOrder' | 'capturePaypalOrder' | 'createPaypalSubscription'> {
  const { db } = ctx;
  return {
    async createPaypalOrder(input) {
      const ref = await once(db, `order:${input.idempotencyKey}`, async () => {
        const id = rid('SBPO', 8).toUpperCase();
        const data: PaypalOrderData = {
          amountCents: input.amountCents,
          description: input.description,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
          status: 'CREATED',
          metadata: input.metadata,
          charge: null,
        };
        await put(db, id, 'paypal_order', data);
        return id;
      });
      return { ref, url: `/sandbox/paypal/approve/${ref}` } satisfies Approval;
    },

    async capturePaypalOrder(ref) {
      const order = await must<PaypalOrderData>(db, ref, 'paypal_order');
      if (order.status === 'CANCELED') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
      if (order.status === 'CREATED')
        throw new ProviderError('provider_error', 'The PayPal payment has not been approved.');
      if (order.status === 'APPROVED') {
        const c = await charge(ctx, {
          paymentMethod: null,
          amountCents: order.amountCents,
          metadata: order.metadata,
          description: order.description,
          offSession: false,
        });
        order.status = 'COMPLETED';
        order.charge = c.ref;
        await put(db, ref, 'paypal_order', order);
        await emit(ctx, {
          type: 'charge.succeeded',
          charge: { ref, amountCents: order.amountCents, metadata: order.metadata },
        });
      }
      return { ref, status: 'succeeded', paymentMethodLabel: `PayPal (${PAYPAL_BUYER})` } satisfies ChargeResult;
    },

    async createPaypalSubscription(input) {
      const ref = await once(db, `paypal-sub:${input.idempotencyKey}`, async () => {
        const [ref] = await newSubscription(db, {
          kind: 'paypal',
          paymentMethod: null,
          label: `PayPal (${PAYPAL_BUYER})`,
          priceCents: input.priceCents,
          interval: input.interval,
          trialDays: input.trialDays,
          description: input.description,
          metadata: input.metadata,
          status: 'approval_pending',
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
        });
        return ref;
      });
      return { ref, url: `/sandbox/paypal/approve/${ref}` } satisfies Approval;
    },
  };
}

/** the sandbox's PayPal-like approval page, and the tests' switch for a buyer's funding */
export function paypalPages(ctx: SandboxContext) {
  const { db } = ctx;
  return {
    /** tests: the PayPal buyer's funding source declines (`fails`) or pays again */
    async setPaypalFunding(ref: string, opts: { fails: boolean }) {
      const s = await subscription(db, ref);
      if (s.kind !== 'paypal') throw new ProviderError('not_found', `No such PayPal subscription: ${ref}`);
      s.fundingFails = opts.fails;
      await putSubscription(db, ref, s);
    },

    /** what the PayPal-like approval page shows */
    async approvalInfo(ref: string): Promise<SandboxApproval | null> {
      const obj = await get<Obj>(db, ref);
      if (!obj) return null;
      const [row] = await db
        .select({ kind: sandboxObjects.kind })
        .from(sandboxObjects)
        .where(eq(sandboxObjects.id, ref));
      if (row?.kind === 'paypal_order') {
        const o = obj as PaypalOrderData;
        return {
          ref,
          kind: 'order' as const,
          amountCents: o.amountCents,
          description: o.description,
          interval: null,
          trialDays: 0,
          status: o.status === 'CREATED' ? 'pending' : o.status === 'CANCELED' ? 'canceled' : 'approved',
        };
      }
      if (row?.kind === 'subscription' && (obj as SubscriptionData).kind === 'paypal') {
        const s = obj as SubscriptionData;
        // past due: the buyer fixes the funding source and approves the payment due
        if (s.status === 'past_due' && s.openInvoice)
          return {
            ref,
            kind: 'subscription' as const,
            amountCents: s.openInvoice.amountCents,
            description: `Payment due: ${s.description}`,
            interval: s.interval,
            trialDays: 0,
            status: 'pending',
          };
        return {
          ref,
          kind: 'subscription' as const,
          amountCents: s.priceCents,
          description: s.description,
          interval: s.interval,
          trialDays: s.trialDays,
          status: s.status === 'approval_pending' ? 'pending' : s.status === 'canceled' ? 'canceled' : 'approved',
        };
      }
      return null;
    },

    /** the buyer approved on the approval page: where PayPal would send them back */
    async approvePaypal(ref: string): Promise<string> {
      const [row] = await db
        .select()
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.id, ref), inArray(sandboxObjects.kind, ['paypal_order', 'subscription'])));
      if (!row) throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (row.kind === 'paypal_order') {
        const o = row.data as PaypalOrderData;
        if (o.status === 'CANCELED') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
        if (o.status === 'CREATED') await put(db, ref, 'paypal_order', { ...o, status: 'APPROVED' });
        return withParams(o.returnUrl, { token: ref, PayerID: 'SANDBOXPAYER' });
      }
      const s = row.data as SubscriptionData;
      if (s.kind !== 'paypal') throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (s.status === 'canceled') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
      if (s.status === 'past_due' && s.openInvoice) {
        // the buyer chose a funding source that pays: what is due is collected now
        s.fundingFails = false;
        await collect(ctx, ref, s, false);
        return '/account/billing?paypal=fixed';
      }
      if (s.status === 'approval_pending') {
        const now = await clockNow(db);
        s.status = s.trialDays > 0 ? 'trialing' : 'active';
        s.periodStart = now;
        s.trialEndsAt = s.trialDays > 0 ? now + s.trialDays * DAY : null;
        s.periodEnd = s.trialEndsAt ?? addInterval(now, s.interval);
        if (s.trialDays <= 0)
          s.firstCharge = (
            await charge(ctx, {
              paymentMethod: null,
              amountCents: s.priceCents,
              metadata: s.metadata,
              description: s.description,
              offSession: false,
            })
          ).ref;
        await putSubscription(db, ref, s);
        await emitSubscription(ctx, ref, s);
      }
      return withParams(s.returnUrl ?? '/', { subscription_id: ref, ba_token: `BA-${ref}`, token: ref });
    },

    async cancelPaypal(ref: string): Promise<string> {
      const [row] = await db
        .select()
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.id, ref), inArray(sandboxObjects.kind, ['paypal_order', 'subscription'])));
      if (!row) throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (row.kind === 'paypal_order') {
        const o = row.data as PaypalOrderData;
        if (o.status === 'CREATED') await put(db, ref, 'paypal_order', { ...o, status: 'CANCELED' });
        return withParams(o.cancelUrl, { token: ref });
      }
      const s = row.data as SubscriptionData;
      if (s.status === 'approval_pending') await putSubscription(db, ref, { ...s, status: 'canceled' });
      return withParams(s.cancelUrl ?? '/', { token: ref });
    },
  };
}
