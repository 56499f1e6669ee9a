import { createHash } from 'node:crypto';
import { COMMERCE_MESSAGES as M, type CheckoutPlan, type MembershipPlan } from '#shared/commerce';
import type { checkoutPlans } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import type { Interval, SubscriptionState } from '#server/modules/payments/index';

export type PlanRow = typeof checkoutPlans.$inferSelect;

const toDollars = (cents: number) => cents / 100;
const toDollarsOrNull = (cents: number | null) => (cents === null ? null : cents / 100);

/** The checkout plan object as the page reads it (prices in dollars). */
export function planObject(row: PlanRow): CheckoutPlan {
  return {
    slug: row.slug,
    heading: row.heading,
    subheading: row.subheading,
    has_trial: row.hasTrial,
    lifetime_price: toDollars(row.lifetimePriceCents),
    yearly_price: toDollars(row.yearlyPriceCents),
    monthly_price: toDollars(row.monthlyPriceCents),
    lifetime_crossed_out_price: toDollarsOrNull(row.lifetimeCrossedOutCents),
    yearly_crossed_out_price: toDollarsOrNull(row.yearlyCrossedOutCents),
    monthly_crossed_out_price: toDollarsOrNull(row.monthlyCrossedOutCents),
    lifetime_sales_tag: row.lifetimeSalesTag,
    yearly_sales_tag: row.yearlySalesTag,
    monthly_sales_tag: row.monthlySalesTag,
    monthly_title: row.monthlyTitle,
    yearly_trial_days: row.yearlyTrialDays,
    monthly_trial_days: row.monthlyTrialDays,
  };
}

/** The server's price for a plan: from the checkout_plans row, never from the browser. */
export const priceCents = (row: PlanRow, plan: MembershipPlan) =>
  plan === 'monthly' ? row.monthlyPriceCents : plan === 'yearly' ? row.yearlyPriceCents : row.lifetimePriceCents;
export const trialDays = (row: PlanRow, plan: MembershipPlan) =>
  !row.hasTrial ? 0 : plan === 'monthly' ? row.monthlyTrialDays : plan === 'yearly' ? row.yearlyTrialDays : 0;
export const intervalOf = (plan: 'monthly' | 'yearly'): Interval => (plan === 'monthly' ? 'month' : 'year');
export const planLabel = (plan: MembershipPlan) =>
  plan === 'monthly' ? 'monthly' : plan === 'yearly' ? 'yearly' : 'lifetime';

/** Already a member: nothing to pay. */
export const alreadySubscribed = () => new AppError('conflict', M.alreadySubscribed);
/** PayPal gave no approval address. */
export const paypalFailed = () => new AppError('provider-unavailable', M.paypalLinkFailed);

/**
 * The idempotency key of one checkout attempt: the user, the checkout, the plan and what the page
 * sent (its Idempotency-Key), hashed so nothing the browser sends is used as is.
 */
export const idempotencyKey = (userId: number, kind: string, checkout: string, plan: string, clientKey: string) =>
  `${kind}_${createHash('sha256').update(`${userId}\u0000${checkout}\u0000${plan}\u0000${clientKey}`).digest('hex').slice(0, 40)}`;

export const ACTIVE_SUBSCRIPTION: SubscriptionState['status'][] = ['active', 'trialing'];
