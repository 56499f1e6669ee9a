import type { PaymentProvider } from '../provider.ts';
import { expand, paymentMethod, priceData, refusal, type StripeContext } from './client.ts';
import { idOf, mapStripeSubscription } from './objects.ts';

/**
 * Subscriptions: one Product per subscription with inline price_data. A card pause with a fee
 * switches the price to the fee (metadata remembers the price to resume to); a free pause uses
 * pause_collection.
 */

export function subscriptionMethods(
  ctx: StripeContext,
): Pick<
  PaymentProvider,
  'subscribeCard' | 'getSubscription' | 'applyDiscount' | 'changePlan' | 'pause' | 'resume' | 'cancel'
> {
  const { sdk } = ctx;
  return {
    async subscribeCard(input) {
      const pm = await paymentMethod(ctx, input.paymentMethod);
      try {
        const product = await sdk.products.create(
          { name: input.description, metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:product` },
        );
        const sub = await sdk.subscriptions.create(
          {
            customer: idOf(pm.customer),
            default_payment_method: input.paymentMethod,
            items: [{ price_data: priceData(product.id, input.priceCents, input.interval) }],
            ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}),
            payment_behavior: 'error_if_incomplete',
            metadata: input.metadata,
            expand,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return mapStripeSubscription(sub);
      } catch (err) {
        return refusal(err);
      }
    },

    async getSubscription(ref) {
      try {
        return mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
      } catch (err) {
        return refusal(err);
      }
    },

    async applyDiscount(ref, discount, idempotencyKey) {
      try {
        const coupon = await sdk.coupons.create(
          {
            ...(discount.percentOff
              ? { percent_off: discount.percentOff }
              : { amount_off: discount.amountOffCents, currency: 'usd' }),
            ...(discount.cycles > 1
              ? { duration: 'repeating', duration_in_months: discount.cycles }
              : { duration: 'once' }),
            name: 'Retention offer',
          },
          { idempotencyKey: `${idempotencyKey}:coupon` },
        );
        return mapStripeSubscription(
          await sdk.subscriptions.update(ref, { discounts: [{ coupon: coupon.id }], expand }, { idempotencyKey }),
        );
      } catch (err) {
        return refusal(err);
      }
    },

    async changePlan(ref, plan, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        const item = sub.items.data[0]!;
        // a one-off amount off the first invoice of the new plan (the upgrade offer)
        const coupon = plan.firstInvoiceAmountOffCents
          ? await sdk.coupons.create(
              { amount_off: plan.firstInvoiceAmountOffCents, currency: 'usd', duration: 'once', name: 'Upgrade offer' },
              { idempotencyKey: `${idempotencyKey}:coupon` },
            )
          : null;
        const updated = await sdk.subscriptions.update(
          ref,
          {
            items: [{ id: item.id, price_data: priceData(idOf(item.price.product)!, plan.priceCents, plan.interval) }],
            proration_behavior: 'always_invoice',
            billing_cycle_anchor: 'now',
            trial_end: 'now',
            cancel_at_period_end: false,
            payment_behavior: 'error_if_incomplete',
            ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
            expand,
          },
          { idempotencyKey },
        );
        return mapStripeSubscription(updated);
      } catch (err) {
        return refusal(err);
      }
    },

    async pause(ref, opts, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        if (sub.metadata?.paused === '1' || sub.pause_collection)
          return mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
        const item = sub.items.data[0]!;
        const params =
          opts.feeCents > 0
            ? {
                items: [{ id: item.id, price_data: priceData(idOf(item.price.product)!, opts.feeCents, 'month') }],
                proration_behavior: 'none',
                cancel_at_period_end: false,
                metadata: {
                  paused: '1',
                  resumePriceCents: String(item.price.unit_amount ?? 0),
                  resumeInterval: item.price.recurring?.interval ?? 'month',
                },
              }
            : { pause_collection: { behavior: 'void' }, cancel_at_period_end: false };
        return mapStripeSubscription(await sdk.subscriptions.update(ref, { ...params, expand }, { idempotencyKey }));
      } catch (err) {
        return refusal(err);
      }
    },

    async resume(ref, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        const item = sub.items.data[0]!;
        const params =
          sub.metadata?.paused === '1'
            ? {
                items: [
                  {
                    id: item.id,
                    price_data: priceData(
                      idOf(item.price.product)!,
                      Number(sub.metadata.resumePriceCents),
                      sub.metadata.resumeInterval === 'year' ? 'year' : 'month',
                    ),
                  },
                ],
                proration_behavior: 'none',
                metadata: { paused: '', resumePriceCents: '', resumeInterval: '' },
              }
            : { pause_collection: '' };
        return mapStripeSubscription(await sdk.subscriptions.update(ref, { ...params, expand }, { idempotencyKey }));
      } catch (err) {
        return refusal(err);
      }
    },

    async cancel(ref, opts, idempotencyKey) {
      try {
        const sub = opts.atPeriodEnd
          ? await sdk.subscriptions.update(ref, { cancel_at_period_end: true, expand }, { idempotencyKey })
          : await sdk.subscriptions.cancel(ref, { expand }, { idempotencyKey });
        return mapStripeSubscription(sub);
      } catch (err) {
        return refusal(err);
      }
    },
  };
}
