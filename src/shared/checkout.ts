import { z } from './zod.ts';
import {
  COMMERCE_MESSAGES as M,
  MEMBERSHIP_PLANS,
  PAYMENT_TYPES,
  checkoutPlanSchema,
  type MembershipPlan,
  type PaymentType,
} from './commerce.ts';
import { LIMITS } from './constants.ts';

// Membership checkout (docs/product/membership-checkout.md): the calls' bodies and answers, and the
// client-side validation (shared so the page and its tests agree on the order).

export const DEFAULT_CHECKOUT_SLUG = 'academy';
// the schemas are built in pure functions, so the /join page (which reads this module's messages
// and addresses) loads no zod (a public page's initial JavaScript stays within its budget: scripts/initial-js.ts)
export const checkoutSlugSchema = /* @__PURE__ */ (() =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9][a-z0-9-]*$/i))();

/** The address of a checkout, and of its PayPal cancel return. */
export const joinUrl = (slug: string) =>
  slug === DEFAULT_CHECKOUT_SLUG ? '/join' : `/join/${encodeURIComponent(slug)}`;
export const orderUrl = (orderId: number) => `/order?order=${orderId}`;
/** the header (or hidden field `idempotency_key`) one checkout attempt sends with every paying call */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const planField = /* @__PURE__ */ (() => z.enum(MEMBERSHIP_PLANS, { error: M.planRequired }))();
const checkoutField = /* @__PURE__ */ (() => checkoutSlugSchema.optional().default(DEFAULT_CHECKOUT_SLUG))();
const keyField = /* @__PURE__ */ (() => z.string().trim().min(8).max(200).optional())();

/** POST /order/stripe */
export const orderStripeBodySchema = /* @__PURE__ */ (() =>
  z.object({
    checkout: checkoutField,
    stripeToken: z
      .string({ error: 'Please enter your card details.' })
      .trim()
      .min(1, 'Please enter your card details.')
      .max(255),
    plan: planField,
    idempotency_key: keyField,
  }))();
/** POST /paypal/get-approval-url */
export const paypalApprovalBodySchema = /* @__PURE__ */ (() =>
  z.object({ plan: planField, checkout: checkoutField, idempotency_key: keyField }))();
/** POST /paypal/lifetime-checkout */
export const paypalLifetimeBodySchema = /* @__PURE__ */ (() =>
  z.object({ checkout: checkoutField, idempotency_key: keyField }))();

/** GET /api/checkout/{slug} */
export const checkoutAnswerSchema = /* @__PURE__ */ (() =>
  z.object({
    plan: checkoutPlanSchema,
    user: z.object({ email: z.string(), name: z.string() }).nullable(),
    /** already holds the membership (or a paused subscription): nothing to pay */
    subscribed: z.boolean(),
    /** the payment types this checkout offers */
    payments: z.array(z.enum(PAYMENT_TYPES)),
    /** the configured card provider: the card form renders its fields */
    card_provider: z.string(),
  }))();
export type CheckoutAnswer = z.infer<typeof checkoutAnswerSchema>;

/**
 * What the card call answers: where to go, or an authentication step before retrying. The step is
 * listed first: an answer with `requires_action` must not be read as the plain `{url}` one.
 */
export const orderStripeAnswerSchema = /* @__PURE__ */ (() =>
  z.union([
    z.object({ requires_action: z.literal(true), client_secret: z.string().optional(), url: z.string().optional() }),
    z.object({ url: z.string() }),
  ]))();
export type OrderStripeAnswer = z.infer<typeof orderStripeAnswerSchema>;

/** GET /api/order */
export const orderSummarySchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.number(),
    kind: z.string(),
    checkout: z.string(),
    plan: z.enum(MEMBERSHIP_PLANS).nullable(),
    /** dollars, as the checkout plan object */
    amount: z.number(),
    amount_cents: z.number(),
    currency: z.string(),
    status: z.string(),
    provider: z.string(),
    payment_method: z.string(),
    lifetime: z.boolean(),
    created_at: z.string(),
    paid_at: z.string().nullable(),
    trial_ends_at: z.string().nullable(),
    next_billing_date: z.string().nullable(),
    subscription_status: z.string().nullable(),
    /** a course order (double kick, course tiers): the tier bought and where the course is */
    course: z.object({ title: z.string(), url: z.string() }).nullable(),
  }))();
export type OrderSummary = z.infer<typeof orderSummarySchema>;
export const orderAnswerSchema = /* @__PURE__ */ (() => z.object({ order: orderSummarySchema.nullable() }))();
export type OrderAnswer = z.infer<typeof orderAnswerSchema>;

/** What the buyer filled in (guest fields only when not signed in). */
export interface CheckoutForm {
  plan: MembershipPlan | '';
  paymentType: PaymentType;
  name: string;
  email: string;
  emailConfirmation: string;
  password: string;
  cardHolder: string;
  terms: boolean;
}

/**
 * The checkout's checks (docs/product/membership-checkout.md), in this order; the page shows each under its field. `field`
 * says where it belongs.
 */
export function checkoutErrors(form: CheckoutForm, guest: boolean): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (!form.plan || !MEMBERSHIP_PLANS.includes(form.plan)) out.push({ field: 'plan', message: M.planRequired });
  if (guest) {
    if (!form.name.trim()) out.push({ field: 'name', message: M.nameRequired });
    if (!form.email.trim()) out.push({ field: 'email', message: M.emailRequired });
    if (form.email.trim().toLowerCase() !== form.emailConfirmation.trim().toLowerCase())
      out.push({ field: 'email_confirmation', message: M.emailsMustMatch });
    if (!form.password) out.push({ field: 'password', message: M.passwordRequired });
    else if (form.password.length < LIMITS.passwordMin) out.push({ field: 'password', message: M.passwordMin });
  }
  if (form.paymentType === 'card' && !form.cardHolder.trim())
    out.push({ field: 'card_holder', message: M.cardHolderRequired });
  if (!form.terms) out.push({ field: 'terms', message: M.termsRequired });
  return out;
}

export const PAYMENT_TYPE_LABELS: Record<PaymentType, string> = { card: 'Card', paypal: 'PayPal' };
export const PAYMENT_TYPE_LIST = PAYMENT_TYPES;
