import { z } from './zod.ts';
import { CANCEL_REASONS, COMMERCE_MESSAGES, DEFAULT_RETENTION_OFFERS, type RetentionOffers } from './commerce.ts';
import { endedUnpaidSchema, pastDueSchema } from './dunning.ts';
import { retentionOffersSchema } from './retention.ts';
import { formatMoney } from './money.ts';

// Billing and retention (docs/product/billing-page.md, docs/product/retention.md): what GET
// /api/billing answers, the retention calls' bodies and the product wording.
// Amounts are integer cents, like the rest of commerce.

export const PAYMENT_KINDS = ['card', 'paypal'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const CYCLES = ['month', 'year'] as const;
export type Cycle = (typeof CYCLES)[number];

export const billingSubscriptionSchema = z.object({
  id: z.number(),
  plan: z.enum(['monthly', 'yearly']),
  cycle: z.enum(CYCLES),
  status: z.enum(['trialing', 'active', 'past_due', 'paused', 'canceled']),
  /** cents a period */
  price: z.number(),
  /** ISO date: the next charge, or the end of access when cancelled */
  nextBillingDate: z.string(),
  paymentMethod: z.string(),
  /** the provider kind: which cancel modal and which calls */
  provider: z.enum(PAYMENT_KINDS),
  cancelAtPeriodEnd: z.boolean(),
  pausedAt: z.string().nullable(),
  canUseDiscount: z.boolean(),
  /** the subscription's one pause was used (it is paused now, or was paused and resumed) */
  pauseUsed: z.boolean(),
  /** already paused, or a pause was used: the cancel flow skips the pause offer */
  skipPause: z.boolean(),
  /** the checkout's lifetime price (cents), and with the retention offer's 20% off */
  lifetimePrice: z.number(),
  lifetimeOfferPrice: z.number(),
  /** the checkout's yearly price (cents), and less the upgrade offer's 50 dollars */
  yearlyPrice: z.number(),
  yearlyOfferPrice: z.number(),
  /** a plain upgrade (the Upgrade modal, no discount): the checkout's full yearly and lifetime prices (cents) */
  yearlyFullPrice: z.number(),
  lifetimeFullPrice: z.number(),
  /** the active discount in words, or null */
  discount: z.string().nullable(),
  /** the retention offers the cancel flow makes (admins set them; docs/product/retention.md) */
  offers: retentionOffersSchema,
  /** past_due: the failed payment, the retries and the grace period (docs/product/dunning.md) */
  pastDue: pastDueSchema.nullable(),
  /** the membership ended because its payment could not be collected */
  ended: endedUnpaidSchema.nullable(),
});
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>;

export const billingInvoiceSchema = z.object({
  id: z.number(),
  date: z.string(),
  description: z.string(),
  /** cents */
  amount: z.number(),
  currency: z.string(),
  status: z.enum(['paid', 'failed', 'refunded']),
});
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>;

/**
 * What the member can do with one thing they have, right now (docs/product/billing-page.md).
 * `change-card` is the hook the payment-method component answers.
 */
export const BILLING_ACTIONS = ['cancel', 'pause', 'resume', 'upgrade', 'change-card'] as const;
export type BillingAction = (typeof BILLING_ACTIONS)[number];

/** How a membership came to the member: a subscription bought, a lifetime bought, or access granted. */
export const MEMBERSHIP_SOURCES = ['subscription', 'lifetime', 'granted'] as const;
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];

export const billingMembershipSchema = z.object({
  /** stable key: `subscription:{id}`, `order:{id}` (a lifetime purchase) or `entitlement:{id}` */
  key: z.string(),
  source: z.enum(MEMBERSHIP_SOURCES),
  /** "Monthly membership", "Yearly membership", "Lifetime membership", "Membership" */
  title: z.string(),
  /** ending: cancelled, access lasts to `endsAt` */
  status: z.enum(['trialing', 'active', 'past_due', 'paused', 'ending', 'lifetime', 'granted']),
  /** cents a period (subscription) or paid once (lifetime); null when granted */
  price: z.number().nullable(),
  currency: z.string(),
  cycle: z.enum(CYCLES).nullable(),
  /** ISO: when it started (bought or granted) */
  since: z.string(),
  /** ISO: the next charge; null when nothing will be charged */
  renewsAt: z.string().nullable(),
  /** ISO: when access ends; null when it does not end (lifetime, granted without an end, a renewing subscription) */
  endsAt: z.string().nullable(),
  /** granted: who gave it, in the member's words ("the Backbeat team") */
  grantedBy: z.string().nullable(),
  paymentMethod: z.string().nullable(),
  /** the subscription's id (its actions are the retention calls) */
  subscriptionId: z.number().nullable(),
  actions: z.array(z.enum(BILLING_ACTIONS)),
});
export type BillingMembership = z.infer<typeof billingMembershipSchema>;

export const billingInstalmentScheduleSchema = z.object({
  /** cents each instalment */
  amount: z.number(),
  paid: z.number(),
  total: z.number(),
  /** ISO: the next instalment's date; null once every instalment is paid or the plan stopped */
  nextDueAt: z.string().nullable(),
  /** cents still to pay */
  remaining: z.number(),
  status: z.enum(['active', 'past_due', 'defaulted', 'completed', 'canceled']),
  paymentMethod: z.string().nullable(),
});
export type BillingInstalmentSchedule = z.infer<typeof billingInstalmentScheduleSchema>;

export const billingMentorshipSchema = z.object({
  /** stable key: `mentorship:{id}` or `entitlement:{id}` (granted without an enrolment) */
  key: z.string(),
  title: z.string(),
  /** how it is paid, in words ("6 monthly card payments of $650.00"), or "Granted" */
  paymentLabel: z.string(),
  status: z.enum(['active', 'past_due', 'defaulted', 'completed', 'canceled', 'refunded', 'granted']),
  mentor: z.string().nullable(),
  since: z.string(),
  /** ISO: when a granted mentorship ends; null when it does not */
  endsAt: z.string().nullable(),
  /** cents paid so far and the whole price (null when granted) */
  paid: z.number(),
  total: z.number().nullable(),
  currency: z.string(),
  /** instalment plans only */
  schedule: billingInstalmentScheduleSchema.nullable(),
  actions: z.array(z.enum(BILLING_ACTIONS)),
});
export type BillingMentorship = z.infer<typeof billingMentorshipSchema>;

export const billingCourseSchema = z.object({
  /** stable key: `course:{id or slug}` */
  key: z.string(),
  title: z.string(),
  /** "Basic" or "Pro" for a tiered course */
  level: z.string().nullable(),
  /** where its lessons are; null when the course has no page */
  url: z.string().nullable(),
  source: z.enum(['bought', 'granted']),
  /** cents paid; null when granted */
  price: z.number().nullable(),
  currency: z.string(),
  since: z.string(),
});
export type BillingCourse = z.infer<typeof billingCourseSchema>;

/** GET /api/billing */
export const billingStateSchema = z.object({
  /** the current subscription with the retention flows' facts (the cancel, pause and upgrade modals) */
  subscription: billingSubscriptionSchema.nullable(),
  /** holds a lifetime membership */
  lifetime: z.boolean(),
  invoices: z.array(billingInvoiceSchema),
  /** every membership the member has now: bought, lifetime or granted */
  memberships: z.array(billingMembershipSchema),
  /** the mentorship programme, bought (in full or by instalments) or granted */
  mentorships: z.array(billingMentorshipSchema),
  courses: z.array(billingCourseSchema),
});
export type BillingState = z.infer<typeof billingStateSchema>;

/**
 * What a billing call answers a script (a plain form post is redirected to /account/billing instead):
 * the outcome in words and where the page goes.
 */
export const billingActionAnswerSchema = z.object({ message: z.string(), redirect: z.string() });
export type BillingActionAnswer = z.infer<typeof billingActionAnswerSchema>;
/** POST /account/billing/paypal/lifetime-checkout from a script: PayPal's approval page */
export const billingLifetimeCheckoutAnswerSchema = z.object({ url: z.string(), message: z.string() });

export const cancellationRowSchema = z.object({
  id: z.number(),
  member: z.object({ id: z.number(), name: z.string(), email: z.string(), url: z.string() }).nullable(),
  provider: z.string(),
  cycle: z.string(),
  reason: z.string(),
  description: z.string(),
  outcome: z.string(),
  created_at: z.string(),
});
export type CancellationRow = z.infer<typeof cancellationRowSchema>;

export interface CancellationsPage {
  data: CancellationRow[];
  page: number;
  pages: number;
  total: number;
}

export const CANCELLATIONS_PER_PAGE = 25;
export const REASON_DESCRIPTION_MAX = 2000;

/** The retention calls' body (forms with `_token`, or JSON with the CSRF header). */
export const retentionBodySchema = z.object({
  reason: z.string().max(200).optional().nullable(),
  reason_description: z
    .string()
    .max(REASON_DESCRIPTION_MAX, `The description may not be greater than ${REASON_DESCRIPTION_MAX} characters.`)
    .optional()
    .nullable(),
  discount: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** a client key (also accepted as the Idempotency-Key header): a double submit is one change */
  idempotency_key: z.string().max(100).optional(),
});
export type RetentionBody = z.infer<typeof retentionBodySchema>;

/** `discount=1` (the cancel flow's offers): 1, "1", true, "true" or "on"; anything else is a plain call */
export const discountFlag = (value: RetentionBody['discount']) =>
  value === true ||
  value === 1 ||
  (typeof value === 'string' && ['1', 'true', 'on'].includes(value.trim().toLowerCase()));

/** cancel flow step 2: the reason's messages (first one only), or null when valid (docs/product/retention.md). */
export function reasonErrors(
  reason: string | null | undefined,
  description: string | null | undefined,
): Record<string, string[]> | null {
  const r = (reason ?? '').trim();
  const known = CANCEL_REASONS.find((c) => c.value === r);
  if (!known) return { reason: [COMMERCE_MESSAGES.reasonRequired] };
  if (known.needsDescription && !(description ?? '').trim())
    return { reason_description: [COMMERCE_MESSAGES.reasonDescriptionRequired] };
  return null;
}

export const reasonNeedsDescription = (reason: string) =>
  CANCEL_REASONS.some((c) => c.value === reason && c.needsDescription);

type Offers = Pick<
  RetentionOffers,
  | 'lifetimeDiscountPercent'
  | 'yearlyUpgradeDiscountCents'
  | 'monthlyDiscountPercent'
  | 'monthlyDiscountCycles'
  | 'yearlyDiscountCents'
>;

export const lifetimeOfferCents = (lifetimeCents: number, offers: Offers = DEFAULT_RETENTION_OFFERS) =>
  Math.round((lifetimeCents * (100 - offers.lifetimeDiscountPercent)) / 100);
export const yearlyOfferCents = (yearlyCents: number, offers: Offers = DEFAULT_RETENTION_OFFERS) =>
  Math.max(0, yearlyCents - offers.yearlyUpgradeDiscountCents);

/** The retention discount for a cycle, in words (the offers admins set; docs/product/retention.md). */
export const discountOfferText = (cycle: Cycle, offers: Offers = DEFAULT_RETENTION_OFFERS) =>
  cycle === 'month'
    ? `${offers.monthlyDiscountPercent}% off your next ${offers.monthlyDiscountCycles === 1 ? 'monthly payment' : `${offers.monthlyDiscountCycles} monthly payments`}`
    : `${formatMoney(offers.yearlyDiscountCents)} off your next yearly payment`;

/** What each call answers (and the modal shows) once it is done. */
export const BILLING_MESSAGES = {
  discount: (cycle: Cycle, offers: Offers = DEFAULT_RETENTION_OFFERS) =>
    `Thanks for staying! ${discountOfferText(cycle, offers)[0]!.toUpperCase()}${discountOfferText(cycle, offers).slice(1)} is now on your membership.`,
  upgradeYearly: `You are now on the yearly plan, with ${formatMoney(DEFAULT_RETENTION_OFFERS.yearlyUpgradeDiscountCents)} off your first year. Thanks for staying!`,
  /** the upgrade offer with the amount admins set (the default's are the words of upgradeYearly) */
  upgradeYearlyOff: (offCents: number) =>
    `You are now on the yearly plan, with ${formatMoney(offCents)} off your first year. Thanks for staying!`,
  upgradeYearlyFull: 'You are now on the yearly plan. Thanks for upgrading!',
  upgradeLifetime: 'Welcome to lifetime membership! You will never be billed again.',
  pause: 'Your membership is paused. Resume it here whenever you are ready.',
  cancel: (date: string) => `Your membership is cancelled. You keep full access until ${date}.`,
  resume: 'Welcome back! Your membership is active again.',
  lifetimeCheckoutFailed: 'The lifetime payment did not go through. You have not been charged.',
  notPaused: 'Your membership is not paused.',
  /** the provider did not resume it (its answer still says paused): nothing changed here either */
  resumeFailed: 'We could not resume your membership just now. Please try again in a few minutes.',
  /** a second pause (a subscription may be paused once) */
  pauseUsed: 'You have already used the pause on this membership. A membership can be paused once.',
  /** the billing page, once the pause was used and the membership runs again */
  pauseUsedNote: 'Pause used: a membership can be paused once. You can still cancel at any time.',
  alreadyYearly: 'Your membership is already on the yearly plan.',
} as const;

/** "March 4, 2027" in the member's locale-independent wording (server and client alike). */
export const longDate = (iso: string | Date) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * What a member can do with a subscription now (docs/product/billing-page.md): cancel while it still
 * renews; pause once, only while it runs normally; resume when paused; upgrade (card only) while it
 * runs normally and the member has no lifetime membership; change the card while it still charges.
 * A paused, past-due or ending subscription is never offered an upgrade.
 */
export function subscriptionActions(
  sub: Pick<BillingSubscription, 'status' | 'cancelAtPeriodEnd' | 'pauseUsed' | 'provider' | 'plan'>,
  lifetime: boolean,
): BillingAction[] {
  if (sub.cancelAtPeriodEnd || sub.status === 'canceled') return [];
  if (sub.status === 'paused') return ['resume', 'cancel'];
  if (sub.status === 'past_due') return ['change-card', 'cancel'];
  const actions: BillingAction[] = [];
  if (!lifetime && sub.provider === 'card') actions.push('upgrade');
  if (!sub.pauseUsed) actions.push('pause');
  actions.push('cancel', 'change-card');
  return actions;
}

/** The membership's state in the member's words (the badge on the billing page). */
export const MEMBERSHIP_STATUS_LABEL: Record<BillingMembership['status'], string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment due',
  paused: 'Paused',
  ending: 'Cancelled',
  lifetime: 'Lifetime',
  granted: 'Granted',
};

export const MENTORSHIP_STATUS_LABEL: Record<BillingMentorship['status'], string> = {
  active: 'Active',
  past_due: 'Payment due',
  defaulted: 'Stopped: payments missed',
  completed: 'Paid in full',
  canceled: 'Cancelled',
  refunded: 'Refunded',
  granted: 'Granted',
};
