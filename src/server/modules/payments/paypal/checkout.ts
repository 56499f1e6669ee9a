import { COMMERCE_MESSAGES } from '#shared/commerce';
import type { ChargeResult, PaymentProvider } from '../provider.ts';
import {
  absolute,
  call,
  money,
  payerLabel,
  type PaypalContext,
  type PaypalLink,
  type PaypalSubscription,
} from './api.ts';

/**
 * What the buyer approves at PayPal: a one-time order (Orders v2: created, approved at PayPal,
 * captured on return) or a subscription (Subscriptions v1: one catalog product and billing plan per
 * subscription, then the subscription). Every creating call sends PayPal-Request-Id.
 */

const approveLink = (links: PaypalLink[] | undefined) =>
  links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href ?? '';

export function checkoutMethods(
  ctx: PaypalContext,
): Pick<PaymentProvider, 'createPaypalOrder' | 'capturePaypalOrder' | 'createPaypalSubscription'> {
  return {
    async createPaypalOrder(input) {
      const order = await call<{ id: string; links?: PaypalLink[] }>(
        ctx,
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              amount: money(input.amountCents),
              description: input.description.slice(0, 127),
              custom_id: input.metadata.orderId ?? undefined,
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                return_url: absolute(ctx, input.returnUrl),
                cancel_url: absolute(ctx, input.cancelUrl),
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
                brand_name: 'Backbeat',
              },
            },
          },
        },
        input.idempotencyKey,
      );
      return { ref: order.id, url: approveLink(order.links) };
    },

    async capturePaypalOrder(ref, idempotencyKey): Promise<ChargeResult> {
      const order = await call<{
        id: string;
        status: string;
        payer?: { email_address?: string };
        payment_source?: { paypal?: { email_address?: string } };
      }>(ctx, 'POST', `/v2/checkout/orders/${encodeURIComponent(ref)}/capture`, {}, idempotencyKey);
      const label = payerLabel(order.payment_source?.paypal?.email_address ?? order.payer?.email_address);
      if (order.status === 'COMPLETED') return { ref: order.id, status: 'succeeded', paymentMethodLabel: label };
      return {
        ref: order.id,
        status: 'failed',
        failureMessage: COMMERCE_MESSAGES.paymentCanceled,
        paymentMethodLabel: label,
      };
    },

    async createPaypalSubscription(input) {
      const key = input.idempotencyKey;
      const product = await call<{ id: string }>(
        ctx,
        'POST',
        '/v1/catalogs/products',
        { name: input.description.slice(0, 127), type: 'SERVICE', category: 'EDUCATIONAL_AND_TEXTBOOKS' },
        `${key}:product`,
      );
      const unit = input.interval === 'year' ? 'YEAR' : 'MONTH';
      const cycles = [
        ...(input.trialDays > 0
          ? [
              {
                frequency: { interval_unit: 'DAY', interval_count: input.trialDays },
                tenure_type: 'TRIAL',
                sequence: 1,
                total_cycles: 1,
              },
            ]
          : []),
        {
          frequency: { interval_unit: unit, interval_count: 1 },
          tenure_type: 'REGULAR',
          sequence: input.trialDays > 0 ? 2 : 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: money(input.priceCents) },
        },
      ];
      const plan = await call<{ id: string }>(
        ctx,
        'POST',
        '/v1/billing/plans',
        {
          product_id: product.id,
          name: input.description.slice(0, 127),
          status: 'ACTIVE',
          billing_cycles: cycles,
          payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 2 },
        },
        `${key}:plan`,
      );
      const sub = await call<PaypalSubscription>(
        ctx,
        'POST',
        '/v1/billing/subscriptions',
        {
          plan_id: plan.id,
          custom_id: input.metadata.orderId ?? input.metadata.userId ?? undefined,
          application_context: {
            brand_name: 'Backbeat',
            user_action: 'SUBSCRIBE_NOW',
            shipping_preference: 'NO_SHIPPING',
            return_url: absolute(ctx, input.returnUrl),
            cancel_url: absolute(ctx, input.cancelUrl),
          },
        },
        `${key}:subscription`,
      );
      return { ref: sub.id, url: approveLink(sub.links) };
    },
  };
}
