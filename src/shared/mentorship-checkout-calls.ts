import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { flag } from './http.ts';
import {
  DEFAULT_MENTORSHIP_PRICE,
  MENTORSHIP_ONE_TIME_PRICES,
  type MentorshipCardPayment,
  type MentorshipOneTimePrice,
} from './mentorship-checkout.ts';
import { formatMoney } from './money.ts';

// Mentorship checkout calls (docs/product/mentorship.md): the paying calls' bodies and answers.
// Prices, options and wording are in mentorship-checkout.ts, which the public /mentorship/checkout
// page reads without loading zod (scripts/initial-js.ts).

/** The flags that choose which options /mentorship/checkout shows (query string or page config). */
export const mentorshipCheckoutFlagsSchema = z.object({
  price2600: flag.optional(),
  price3900: flag.optional(),
  downsell: flag.optional(),
  showsix: flag.optional(),
});
export const mentorshipCardPaymentSchema = z.enum(['3200', '2700', '1800', '1300', '650', 'finance']);

/** the browser's key of one payment attempt (a double submit or a retry is one order) */
const attemptKey = z.string().trim().max(200).optional();

/** POST /mentorship/create-checkout: `price` in dollars, 3200 when absent */
export const createMentorshipCheckoutBodySchema = z.object({
  price: z.coerce
    .number()
    .int()
    .refine(
      (v): v is MentorshipOneTimePrice => (MENTORSHIP_ONE_TIME_PRICES as readonly number[]).includes(v),
      'Choose one of the mentorship prices: 3200, 1600, 2600 or 3900.',
    )
    .default(DEFAULT_MENTORSHIP_PRICE),
  idempotency_key: attemptKey,
});

/** POST /mentorship/paypal/subscription: start the PayPal instalment subscription of '3' or '6' */
export const mentorshipPaypalSubscriptionBodySchema = z.object({
  plan: z.enum(['3', '6'], { error: 'Choose 3 or 6 payments.' }),
  idempotency_key: attemptKey,
});

/** POST /mentorship/payment-plan, after the PayPal subscription approval */
export const mentorshipPaymentPlanBodySchema = z.object({
  contact_name: z.string().overwrite(cleanDisplayText).trim().max(200).default(''),
  contact_email: z.string().trim().max(254).default(''),
  name: z.string().overwrite(cleanDisplayText).trim().max(200).default(''),
  email: z.string().trim().max(254).default(''),
  agreement_id: z.string().trim().min(1, 'The PayPal subscription is missing. Please try again.').max(100),
});

/** POST /mentorship/stripe/charge: the card page's confirmed payment method */
export const mentorshipCardChargeBodySchema = z.object({
  payment: mentorshipCardPaymentSchema.exclude(['finance']),
  payment_method: z.string().trim().min(1, 'Your card is missing. Please enter it again.').max(200),
  idempotency_key: attemptKey,
});

/** POST /mentorship/stripe/checkout: the financing option's hosted checkout (3,900) */
export const mentorshipFinanceCheckoutBodySchema = z.object({ idempotency_key: attemptKey });

/**
 * the paying calls' answer: go to `url`, or authenticate the card first (listed first: an answer with
 * `requires_action` must not be read as the plain `{url}` one)
 */
export const mentorshipPayAnswerSchema = z.union([
  z.object({ requires_action: z.literal(true), url: z.string().optional(), client_secret: z.string().optional() }),
  z.object({ url: z.string() }),
]);
export type MentorshipPayAnswer = z.infer<typeof mentorshipPayAnswerSchema>;

/** GET /api/mentorship/checkout: who is buying and whether they already are a student */
export const mentorshipCheckoutAnswerSchema = z.object({
  user: z.object({ name: z.string(), email: z.string() }).nullable(),
  enrolled: z.boolean(),
});
export type MentorshipCheckoutAnswer = z.infer<typeof mentorshipCheckoutAnswerSchema>;

/** the `option` of a mentorship bought at /mentorship/stripe/{payment} */
export const cardPaymentOption = (payment: MentorshipCardPayment) =>
  payment === 'finance' ? 'finance' : `card${payment}`;

/** what each bought option is called (notifications, the admin's lists) */
export const MENTORSHIP_OPTION_LABELS: Record<string, string> = {
  onetime: `paid in full (${formatMoney(3200_00)})`,
  onetime1600: `paid in full (${formatMoney(1600_00)})`,
  onetime2600: `paid in full (${formatMoney(2600_00)})`,
  onetime3900: `paid in full (${formatMoney(3900_00)})`,
  '3': `3 PayPal payments of ${formatMoney(1200_00)}`,
  '6': `6 PayPal payments of ${formatMoney(650_00)}`,
  card3200: `paid in full by card (${formatMoney(3200_00)})`,
  card2700: `paid in full by card (${formatMoney(2700_00)})`,
  card1800: `2 monthly card payments of ${formatMoney(1800_00)}`,
  card1300: `3 monthly card payments of ${formatMoney(1300_00)}`,
  card650: `6 monthly card payments of ${formatMoney(650_00)}`,
  finance: `financed (${formatMoney(3900_00)})`,
};
