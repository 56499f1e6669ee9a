import { DEFAULT_RETENTION_OFFERS } from '#shared/commerce';
import type { BillingSubscription } from '#shared/billing';

/** A member's monthly card subscription as the billing page receives it, renewing 4 March 2027. */
export function cardSubscription(over: Partial<BillingSubscription> = {}): BillingSubscription {
  return {
    id: 7,
    plan: 'monthly',
    cycle: 'month',
    status: 'active',
    price: 29_00,
    nextBillingDate: '2027-03-04T10:00:00.000Z',
    paymentMethod: 'Visa ending 4242',
    provider: 'card',
    cancelAtPeriodEnd: false,
    pausedAt: null,
    canUseDiscount: true,
    pauseUsed: false,
    pastDue: null,
    ended: null,
    skipPause: false,
    lifetimePrice: 750_00,
    lifetimeOfferPrice: 600_00,
    yearlyPrice: 249_00,
    yearlyOfferPrice: 199_00,
    yearlyFullPrice: 249_00,
    lifetimeFullPrice: 750_00,
    discount: null,
    offers: DEFAULT_RETENTION_OFFERS,
    ...over,
  };
}
