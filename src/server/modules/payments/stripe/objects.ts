import type { ChargeResult, SubscriptionState } from '../provider.ts';

/**
 * Stripe's objects as we read them, and their mapping to ours: a subscription's state, a
 * Checkout Session's payment, a card's label.
 */

// the parts of Stripe's objects we read (Stripe's own typings move with every API version)
export interface StripeCard {
  brand?: string;
  last4?: string;
}
export interface StripePaymentMethod {
  id: string;
  customer: string | { id: string } | null;
  card?: StripeCard | null;
}
export interface StripeSubscription {
  id: string;
  status: string;
  customer?: string | { id: string } | null;
  latest_invoice?: string | { id: string; status?: string | null } | null;
  cancel_at_period_end: boolean;
  trial_end: number | null;
  current_period_end?: number;
  pause_collection: { behavior: string } | null;
  metadata: Record<string, string>;
  default_payment_method: string | StripePaymentMethod | null;
  items: {
    data: {
      id: string;
      current_period_end?: number;
      price: { unit_amount: number | null; product: string | { id: string }; recurring: { interval: string } | null };
    }[];
  };
}
export interface StripeCheckoutSession {
  id: string;
  url: string | null;
  status: string;
  payment_status: string;
  amount_total: number | null;
  payment_intent:
    | string
    | { id: string; status?: string; payment_method?: string | { type?: string; card?: StripeCard | null } | null }
    | null;
}
/** an invoice's payment: `payment_intent`/`charge` on older API versions, `payments` on newer ones */
export type StripeInvoicePayment = {
  payment_intent?: string | { id: string } | null;
  charge?: string | { id: string } | null;
  payments?: {
    data?: {
      payment?: { payment_intent?: string | { id: string } | null; charge?: string | { id: string } | null };
    }[];
  };
};

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};
export const cardLabel = (card: StripeCard | null | undefined) =>
  card ? `${BRANDS[card.brand ?? ''] ?? 'Card'} ending ${card.last4 ?? '????'}` : 'Card';
export const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/** the charge (payment intent or charge) that paid an invoice */
export const invoicePaymentRef = (i: StripeInvoicePayment) => {
  const paid = i.payments?.data?.[0]?.payment;
  return idOf(i.payment_intent) ?? idOf(i.charge) ?? idOf(paid?.payment_intent) ?? idOf(paid?.charge);
};

export function mapStripeSubscription(sub: StripeSubscription): SubscriptionState {
  const item = sub.items.data[0];
  const paused = sub.metadata?.paused === '1' || sub.pause_collection !== null;
  const statusMap: Record<string, SubscriptionState['status']> = {
    trialing: 'trialing',
    active: 'active',
    past_due: 'past_due',
    unpaid: 'past_due',
    paused: 'paused',
    canceled: 'canceled',
    incomplete: 'incomplete',
    incomplete_expired: 'canceled',
  };
  let status = statusMap[sub.status] ?? 'incomplete';
  if (paused && (status === 'active' || status === 'trialing')) status = 'paused';
  const pm = sub.default_payment_method;
  const periodEnd = item?.current_period_end ?? sub.current_period_end ?? 0;
  return {
    ref: sub.id,
    status,
    interval: item?.price.recurring?.interval === 'year' ? 'year' : 'month',
    priceCents: sub.metadata?.paused === '1' ? Number(sub.metadata.resumePriceCents) : (item?.price.unit_amount ?? 0),
    currentPeriodEnd: new Date(periodEnd * 1000),
    trialEndsAt: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    paymentMethodLabel: pm && typeof pm !== 'string' ? cardLabel(pm.card) : '',
  };
}

/** Stripe Checkout's financing methods (the mentorship "finance" option), beside the card */
export const STRIPE_FINANCING_METHODS = ['card', 'affirm', 'klarna'] as const;

export function mapStripeCheckoutSession(session: StripeCheckoutSession): ChargeResult {
  const pi = session.payment_intent;
  const ref = idOf(pi) ?? session.id;
  const pm =
    pi && typeof pi !== 'string' && pi.payment_method && typeof pi.payment_method !== 'string'
      ? pi.payment_method
      : null;
  const label = pm
    ? pm.type === 'card'
      ? cardLabel(pm.card)
      : pm.type === 'affirm'
        ? 'Affirm'
        : pm.type === 'klarna'
          ? 'Klarna'
          : 'Card'
    : 'Card';
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
    return { ref, status: 'succeeded', paymentMethodLabel: label };
  if (session.status === 'expired')
    return {
      ref,
      status: 'failed',
      failureMessage: 'This checkout expired. Please start again.',
      paymentMethodLabel: label,
    };
  return {
    ref,
    status: 'requires_action',
    nextAction: session.url ? { url: session.url } : {},
    paymentMethodLabel: label,
  };
}
