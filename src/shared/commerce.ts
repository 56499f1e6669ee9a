import { z } from './zod.ts';
import type { RetentionOffers } from './retention.ts';

// Commerce: wording, prices and rules shared by the checkout pages and the
// server. Amounts are integer cents; `formatMoney()` (money.ts) writes them for people. The server decides every price.

export const MEMBERSHIP_PLANS = ['monthly', 'yearly', 'lifetime'] as const;
export type MembershipPlan = (typeof MEMBERSHIP_PLANS)[number];
export const DEFAULT_PLAN: MembershipPlan = 'monthly';
export const PAYMENT_TYPES = ['card', 'paypal'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
export const PROVIDERS = ['sandbox', 'stripe', 'paypal'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** a card form's SetupIntent secret (the card element confirms the card with it) */
export const clientSecretResponseSchema = z.object({ clientSecret: z.string() });
export type ClientSecretResponse = z.infer<typeof clientSecretResponseSchema>;
/** where the browser goes next (an order page, a provider's approval page) */
export const urlResponseSchema = z.object({ url: z.string() });
export type UrlResponse = z.infer<typeof urlResponseSchema>;

/** The checkout plan object, as the checkout page receives it (prices in dollars). */
export const checkoutPlanSchema = z.object({
  slug: z.string(),
  heading: z.string(),
  subheading: z.string(),
  has_trial: z.boolean(),
  lifetime_price: z.number(),
  yearly_price: z.number(),
  monthly_price: z.number(),
  lifetime_crossed_out_price: z.number().nullable(),
  yearly_crossed_out_price: z.number().nullable(),
  monthly_crossed_out_price: z.number().nullable(),
  lifetime_sales_tag: z.string().nullable(),
  yearly_sales_tag: z.string().nullable(),
  monthly_sales_tag: z.string().nullable(),
  monthly_title: z.string(),
  yearly_trial_days: z.number(),
  monthly_trial_days: z.number(),
});
export type CheckoutPlan = z.infer<typeof checkoutPlanSchema>;

/** The default membership checkout (slug "academy"); admins change it in the admin console (#10). */
export const DEFAULT_CHECKOUT = {
  slug: 'academy',
  heading: 'Join the Backbeat Academy',
  subheading: 'Every course, the forums, live shows and the practice tools. Cancel any time.',
  hasTrial: true,
  monthlyPriceCents: 29_00,
  yearlyPriceCents: 249_00,
  lifetimePriceCents: 750_00,
  monthlyCrossedOutCents: 39_00,
  yearlyCrossedOutCents: 348_00,
  lifetimeCrossedOutCents: 999_00,
  monthlySalesTag: null,
  yearlySalesTag: 'Best value',
  lifetimeSalesTag: 'Pay once',
  monthlyTitle: 'Monthly',
  monthlyTrialDays: 7,
  yearlyTrialDays: 14,
} as const;

/** Double kick (docs/product/course-products.md): Basic 159 (99 discounted, 150 spots), Pro 265 (165, 60 spots). */
export const DOUBLE_KICK_TIERS = [
  {
    slug: 'doublekick_159',
    level: 'basic',
    title: 'Double Kick Mastery: Basic',
    listPriceCents: 159_00,
    priceCents: 99_00,
    spots: 150,
  },
  {
    slug: 'doublekick_265',
    level: 'pro',
    title: 'Double Kick Mastery: Pro',
    listPriceCents: 265_00,
    priceCents: 165_00,
    spots: 60,
  },
] as const;
export const COURSE_LEVELS = ['basic', 'pro'] as const;
export type CourseLevel = (typeof COURSE_LEVELS)[number];

/** the default retention offers (docs/product/retention.md) */
export const RETENTION = {
  monthlyDiscountPercent: 30,
  monthlyDiscountCycles: 3,
  yearlyDiscountCents: 30_00,
  yearlyUpgradeDiscountCents: 50_00,
  lifetimeDiscountPercent: 20,
  defaultLifetimePriceCents: 750_00,
  cardPauseFeeCents: 5_00,
  paypalPauseFeeCents: 0,
} as const;

/** The retention offers admins set: the setting `retention_offers`, RETENTION by default. */
export const RETENTION_SETTING = 'retention_offers';
// the offers' schema is in retention.ts: a page that reads this module's wording and prices loads no zod
// for it (a public page's initial JavaScript stays within its budget: scripts/initial-js.ts)
export type { RetentionOffers } from './retention.ts';
export const DEFAULT_RETENTION_OFFERS: RetentionOffers = {
  monthlyDiscountPercent: RETENTION.monthlyDiscountPercent,
  monthlyDiscountCycles: RETENTION.monthlyDiscountCycles,
  yearlyDiscountCents: RETENTION.yearlyDiscountCents,
  yearlyUpgradeDiscountCents: RETENTION.yearlyUpgradeDiscountCents,
  lifetimeDiscountPercent: RETENTION.lifetimeDiscountPercent,
  cardPauseFeeCents: RETENTION.cardPauseFeeCents,
  paypalPauseFeeCents: RETENTION.paypalPauseFeeCents,
};

/** the cancel flow's reasons; the two that need a description are marked (docs/product/retention.md). */
export const CANCEL_REASONS = [
  { value: "It's too expensive for me right now", needsDescription: false },
  { value: "I don't have time to practise", needsDescription: false },
  { value: "I'm not seeing the progress I wanted", needsDescription: false },
  { value: 'I had technical problems', needsDescription: false },
  { value: 'Switching to other website or lessons', needsDescription: true },
  { value: 'Other', needsDescription: true },
] as const;
export const CANCEL_OUTCOMES = [
  'cancel',
  'pause',
  'discount',
  'upgrade-yearly',
  'upgrade-lifetime',
  'lifetime-checkout',
] as const;
export type CancelOutcome = (typeof CANCEL_OUTCOMES)[number];

/** Test cards of the sandbox provider (the same numbers Stripe's test mode uses). */
export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  needsAuthentication: '4000002500003155',
  /** attaches, but every later charge (a renewal) is declined */
  failsLater: '4000000000000341',
} as const;

/** the commerce pages' messages, verbatim */
export const COMMERCE_MESSAGES = {
  planRequired: 'Please select a plan to subscribe to.',
  nameRequired: 'Your name is required.',
  emailRequired: 'Your email is required.',
  emailsMustMatch: 'Your email addresses must match.',
  passwordRequired: 'Your password is required.',
  passwordMin: 'For your security, your password must be at least 8 characters long.',
  cardHolderRequired: 'Card holder name is required.',
  termsRequired: 'Please tick the box and accept the DBO Terms.',
  registrationFailed: 'There was an error processing your registration. Please refresh this page and try again.',
  installmentFailed: 'There was an error processing your installment plan. Please try again.',
  paypalLinkFailed: 'There was an error getting the PayPal checkout link. Please try again.',
  clientSecretFailed: 'There was an error retrieving the Stripe client secret. Please refresh this page and try again.',
  reasonRequired: 'Please select a reason to continue.',
  reasonDescriptionRequired: 'Please fill in the text box beneath the reason.',
  choiceRequired: 'Please select what you would like to do.',
  /** product wording */
  alreadySubscribed: 'You already have an active membership, so there is nothing to pay. Enjoy the academy!',
  soldOut: 'Sold out: every spot for this tier has been taken.',
  cardDeclined: 'Your card was declined.',
  paymentCanceled: 'The PayPal payment was cancelled. You have not been charged.',
  noSubscription: 'You do not have an active subscription.',
  discountUsed: 'This discount has already been used on your subscription.',
} as const;

/** Where "Become a member" / "See membership plans" links go: the membership checkout. */
export const JOIN_URL = '/join';
