import { randomUUID } from 'node:crypto';
import { DEFAULT_CHECKOUT } from '#shared/commerce';
import type { CheckoutAnswer } from '#shared/checkout';
import { checkoutPlans } from '#server/db/schema/index';
import type { AuthUser } from '#server/types';
import { createCardCheckout } from './card.ts';
import { createOrderSummary } from './order-summary.ts';
import { createCheckoutOrders, type CheckoutDeps } from './orders.ts';
import { createPaypalCheckout } from './paypal.ts';
import { planObject } from './pricing.ts';

export type { CheckoutDeps } from './orders.ts';
export { alreadySubscribed, idempotencyKey, paypalFailed, planObject, priceCents, trialDays } from './pricing.ts';

/**
 * The membership checkout (docs/product/membership-checkout.md): prices from checkout_plans, payments through the
 * ledger (app.deps.services.payments) and the configured providers. Every paying call is one order
 * per idempotency key: a double submit or a retry answers what the first did.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  const { db, payments } = deps;
  const steps = createCheckoutOrders(deps);
  const { planRow, isSubscribed } = steps;

  return {
    /** start-up: the default checkout exists (admins edit it in the console); never overwritten */
    async ensureDefaultPlan() {
      const d = DEFAULT_CHECKOUT;
      await db
        .insert(checkoutPlans)
        .values({
          slug: d.slug,
          heading: d.heading,
          subheading: d.subheading,
          hasTrial: d.hasTrial,
          monthlyPriceCents: d.monthlyPriceCents,
          yearlyPriceCents: d.yearlyPriceCents,
          lifetimePriceCents: d.lifetimePriceCents,
          monthlyCrossedOutCents: d.monthlyCrossedOutCents,
          yearlyCrossedOutCents: d.yearlyCrossedOutCents,
          lifetimeCrossedOutCents: d.lifetimeCrossedOutCents,
          monthlySalesTag: d.monthlySalesTag,
          yearlySalesTag: d.yearlySalesTag,
          lifetimeSalesTag: d.lifetimeSalesTag,
          monthlyTitle: d.monthlyTitle,
          monthlyTrialDays: d.monthlyTrialDays,
          yearlyTrialDays: d.yearlyTrialDays,
        })
        .onConflictDoNothing({ target: checkoutPlans.slug });
    },

    planRow,

    /** holds the membership, or a subscription that is still theirs (paused, or canceled inside its period) */
    isSubscribed,

    async checkout(slug: string, user: AuthUser | null): Promise<CheckoutAnswer> {
      const row = await planRow(slug);
      return {
        plan: planObject(row),
        user: user ? { email: user.email, name: user.name } : null,
        subscribed: user ? await isSubscribed(user) : false,
        payments: ['card', 'paypal'],
        card_provider: payments.providerFor('card').name,
      };
    },

    async clientSecret(user: AuthUser): Promise<string> {
      const { clientSecret } = await payments.providerFor('card').createCardSetup({
        email: user.email,
        name: user.name,
        idempotencyKey: `setup_${user.id}_${randomUUID()}`,
        metadata: { userId: String(user.id) },
      });
      return clientSecret;
    },

    ...createCardCheckout(deps, steps),
    ...createPaypalCheckout(deps, steps),

    /** GET /api/order */
    order: createOrderSummary(deps, steps),
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
