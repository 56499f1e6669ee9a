import { z } from './zod.ts';
import { formatMoney } from './money.ts';

// Recovery from a failed membership payment (docs/product/dunning.md): the retry schedule, what the
// billing page shows about it, and the words. Amounts are integer cents.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The automatic retries of a failed membership payment, in days after the first failure. Lessons
 * stay open until the last one; when it fails too, the membership ends.
 */
export const DUNNING_RETRY_DAYS = [3, 5, 7] as const;

/** the last automatic retry, in days after the failure: the end of the grace period */
export const DUNNING_GRACE_DAYS = DUNNING_RETRY_DAYS[DUNNING_RETRY_DAYS.length - 1]!;

/** how long the billing page keeps telling a member why their membership ended */
export const DUNNING_ENDED_NOTICE_DAYS = 60;

/**
 * When the grace period ends, from the provider's next retry: `retriesDone` automatic retries have
 * failed, the next one is retry `retriesDone + 1` at `nextRetryAt`; the last one ends the grace.
 */
export function graceEndsAt(nextRetryAt: Date, retriesDone: number): Date {
  const nextDay = DUNNING_RETRY_DAYS[Math.min(retriesDone, DUNNING_RETRY_DAYS.length - 1)]!;
  return new Date(nextRetryAt.getTime() + (DUNNING_GRACE_DAYS - nextDay) * DAY_MS);
}

/** the next automatic retry after `retriesDone` failed ones, from the first failure; null when none is left */
export function nextRetryAt(failedAt: Date, retriesDone: number): Date | null {
  const day = DUNNING_RETRY_DAYS[retriesDone];
  return day === undefined ? null : new Date(failedAt.getTime() + day * DAY_MS);
}

/** A membership whose last payment failed: what the billing page explains (GET /api/billing). */
export const pastDueSchema = z.object({
  /** cents still due */
  amount: z.number(),
  currency: z.string(),
  /** ISO: when the payment first failed */
  failedAt: z.string(),
  /** automatic retries already made (of DUNNING_RETRY_DAYS.length) */
  retriesDone: z.number(),
  retriesTotal: z.number(),
  /** ISO: the next automatic retry, null when none is left */
  nextRetryAt: z.string().nullable(),
  /** ISO: lessons stay open until then; the membership ends if the payment is still missing */
  graceEndsAt: z.string(),
  /** PayPal: where the member fixes their funding source at PayPal; null for a card */
  fixUrl: z.string().nullable(),
});
export type PastDue = z.infer<typeof pastDueSchema>;

/** A membership that ended because its payment could not be collected. */
export const endedUnpaidSchema = z.object({
  /** ISO */
  endedAt: z.string(),
  /** cents that could not be collected */
  amount: z.number(),
  currency: z.string(),
});
export type EndedUnpaid = z.infer<typeof endedUnpaidSchema>;

/** POST /account/billing/card: the new card (a payment method the provider's setup flow confirmed) */
export const updateCardBodySchema = z.object({
  payment_method: z.string().trim().min(1, 'Please enter your card details.').max(200),
  idempotency_key: z.string().max(100).optional(),
});

/** POST /account/billing/pay-now */
export const payNowBodySchema = z.object({ idempotency_key: z.string().max(100).optional() });

const when = (iso: string | Date) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export const DUNNING_MESSAGES = {
  heading: 'Your last payment did not go through',
  /** the explanation on the billing page */
  explain: (p: Pick<PastDue, 'amount' | 'currency' | 'failedAt'>, method: string) =>
    `We could not collect your membership payment of ${formatMoney(p.amount, p.currency)}${method ? ` from ${method}` : ''} on ${when(p.failedAt)}.`,
  nextRetry: (p: Pick<PastDue, 'nextRetryAt' | 'retriesDone' | 'retriesTotal'>) =>
    p.nextRetryAt
      ? `We will try again automatically on ${when(p.nextRetryAt)} (retry ${p.retriesDone + 1} of ${p.retriesTotal}).`
      : 'No automatic retries are left.',
  grace: (p: Pick<PastDue, 'graceEndsAt'>) =>
    `Your lessons stay open until ${when(p.graceEndsAt)}. If the payment is still missing after the last retry, your membership ends then.`,
  schedule: `Automatic retries happen ${DUNNING_RETRY_DAYS.slice(0, -1).join(', ')} and ${DUNNING_GRACE_DAYS} days after a failed payment.`,
  cardHint: 'Update your card and pay now to keep your membership without a break.',
  paypalHint:
    'Your PayPal payment was declined. Fix how you pay at PayPal (add money or choose another card or bank there); we then collect the payment.',
  paid: 'Thank you! Your payment went through and your membership is active.',
  cardUpdated: 'Your card was updated. Future payments use it.',
  /** the card update form's name field, left empty */
  cardNameRequired: 'Please enter the name on your card.',
  notPastDue: 'Your membership has no payment due.',
  /** an upgrade while a payment is due: the payment first */
  settleFirst: 'Please pay the amount due before changing your plan.',
  endedHeading: 'Your membership has ended',
  ended: (e: EndedUnpaid) =>
    `Your membership ended on ${when(e.endedAt)} because we could not collect the payment of ${formatMoney(e.amount, e.currency)} after ${DUNNING_RETRY_DAYS.length} retries. Your lessons are locked. You can join again at any time; you have not been charged.`,
} as const;
