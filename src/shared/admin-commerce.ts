import { z } from './zod.ts';
import { formatMoney } from './money.ts';
import { cleanDisplayText } from './display-text.ts';
import { adminListQuerySchema, adminPageSchema } from './admin.ts';
import { COURSE_LEVELS, PROVIDERS } from './commerce.ts';

// The admin console's commerce pages (docs/product/admin-console.md): orders and refunds, subscriptions, the membership
// plan object, course tiers with spots, mentorship pricing flags, retention offers
// and the cancellation reasons. Amounts are integer cents (the forms show dollars).

export const ORDER_STATUSES = ['pending', 'requires_action', 'paid', 'failed', 'refunded', 'canceled'] as const;
export const ORDER_KINDS = ['membership', 'course', 'mentorship'] as const;
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values).optional());

/** GET /api/admin/orders: search buyer name/email, product, provider ref; filter status, kind, provider; sort created_at | amount */
export const adminOrdersQuerySchema = adminListQuerySchema.extend({
  status: optionalEnum(ORDER_STATUSES),
  kind: optionalEnum(ORDER_KINDS),
  provider: optionalEnum(PROVIDERS),
});

/** a buyer or subscriber as the lists show them (null: the account is gone) */
const adminPersonSchema = z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable();

export const adminOrderRowSchema = z.object({
  id: z.number(),
  buyer: adminPersonSchema,
  kind: z.string(),
  product: z.string(),
  plan: z.string().nullable(),
  amount_cents: z.number(),
  currency: z.string(),
  provider: z.string(),
  provider_ref: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;
/** GET /api/admin/orders */
export const adminOrderPageSchema = adminPageSchema(adminOrderRowSchema);

export const adminInvoiceRowSchema = z.object({
  id: z.number(),
  amount_cents: z.number(),
  status: z.enum(['paid', 'failed', 'refunded']),
  description: z.string(),
  provider_ref: z.string(),
  created_at: z.string(),
});
export type AdminInvoiceRow = z.infer<typeof adminInvoiceRowSchema>;

/** GET /api/admin/orders/:id */
export const adminOrderDetailSchema = adminOrderRowSchema.extend({
  failure_message: z.string().nullable(),
  affiliate: z.string().nullable(),
  payment_method: z.string(),
  invoices: z.array(adminInvoiceRowSchema),
  /** a paid order with a provider charge can be refunded */
  refundable: z.boolean(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

/** POST /api/admin/orders/:id/refund */
export const adminRefundResultSchema = z.object({
  message: z.string(),
  order: adminOrderDetailSchema,
});
export type AdminRefundResult = z.infer<typeof adminRefundResultSchema>;

export const ORDER_MESSAGES = {
  notPaid: 'Only a paid order can be refunded.',
  noCharge: 'This order has no provider charge to refund (a subscription is refunded at its provider).',
  refunded: 'The refund went through: the order is refunded and its access removed.',
  pending: 'The provider accepted the refund; the order will show as refunded once the provider confirms it.',
} as const;

/** GET /api/admin/subscriptions */
export const adminSubscriptionsQuerySchema = adminListQuerySchema.extend({
  status: optionalEnum(SUBSCRIPTION_STATUSES),
  plan: optionalEnum(['monthly', 'yearly'] as const),
  provider: optionalEnum(PROVIDERS),
});

export const adminSubscriptionRowSchema = z.object({
  id: z.number(),
  member: adminPersonSchema,
  checkout_slug: z.string(),
  plan: z.enum(['monthly', 'yearly']),
  status: z.enum(SUBSCRIPTION_STATUSES),
  price_cents: z.number(),
  /** the discount still to come, in words */
  discount: z.string().nullable(),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  payment_method: z.string(),
  provider: z.string(),
  provider_ref: z.string(),
  created_at: z.string(),
});
export type AdminSubscriptionRow = z.infer<typeof adminSubscriptionRowSchema>;
/** GET /api/admin/subscriptions */
export const adminSubscriptionPageSchema = adminPageSchema(adminSubscriptionRowSchema);

// ---- membership plans

const MAX_CENTS = 10_000_000;
const cents = (label: string) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .int(`The ${label} must be a whole number of cents.`)
    .min(0, `The ${label} may not be negative.`)
    .max(MAX_CENTS, `The ${label} may not be greater than ${formatMoney(10_000_000)}.`);
const days = (label: string) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .int(`The ${label} must be a whole number.`)
    .min(0, `The ${label} may not be negative.`)
    .max(365, `The ${label} may not be greater than 365.`);
const tag = (label: string) =>
  z
    .string()
    .trim()
    .max(40, `The ${label} may not be greater than 40 characters.`)
    .nullable()
    .transform((v) => (v ? v : null));

export const PLAN_CYCLES = ['monthly', 'yearly', 'lifetime'] as const;

/** PUT /api/admin/plans/:slug: the whole plan object. A crossed-out price must be above its price. */
export const adminPlanSchema = z
  .object({
    heading: z
      .string()
      .trim()
      .min(1, 'The heading is required.')
      .max(200, 'The heading may not be greater than 200 characters.'),
    subheading: z.string().trim().max(500, 'The subheading may not be greater than 500 characters.'),
    has_trial: z.boolean(),
    monthly_title: z
      .string()
      .overwrite(cleanDisplayText)
      .trim()
      .min(1, 'The monthly title is required.')
      .max(60, 'The monthly title may not be greater than 60 characters.'),
    monthly_price_cents: cents('monthly price'),
    yearly_price_cents: cents('yearly price'),
    lifetime_price_cents: cents('lifetime price'),
    monthly_crossed_out_cents: cents('monthly crossed-out price').nullable(),
    yearly_crossed_out_cents: cents('yearly crossed-out price').nullable(),
    lifetime_crossed_out_cents: cents('lifetime crossed-out price').nullable(),
    monthly_sales_tag: tag('monthly sales tag'),
    yearly_sales_tag: tag('yearly sales tag'),
    lifetime_sales_tag: tag('lifetime sales tag'),
    monthly_trial_days: days('monthly trial days'),
    yearly_trial_days: days('yearly trial days'),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    for (const c of PLAN_CYCLES) {
      const crossed = v[`${c}_crossed_out_cents`];
      if (crossed !== null && crossed <= v[`${c}_price_cents`]) {
        ctx.addIssue({
          code: 'custom',
          path: [`${c}_crossed_out_cents`],
          message: `The ${c} crossed-out price must be above the ${c} price.`,
        });
      }
    }
  });
export type AdminPlanInput = z.infer<typeof adminPlanSchema>;
/** a plan as the console reads it: the stored values (no checks: they were checked when saved) */
export const adminPlanAnswerSchema = z.object({
  slug: z.string(),
  heading: z.string(),
  subheading: z.string(),
  has_trial: z.boolean(),
  monthly_title: z.string(),
  monthly_price_cents: z.number(),
  yearly_price_cents: z.number(),
  lifetime_price_cents: z.number(),
  monthly_crossed_out_cents: z.number().nullable(),
  yearly_crossed_out_cents: z.number().nullable(),
  lifetime_crossed_out_cents: z.number().nullable(),
  monthly_sales_tag: z.string().nullable(),
  yearly_sales_tag: z.string().nullable(),
  lifetime_sales_tag: z.string().nullable(),
  monthly_trial_days: z.number(),
  yearly_trial_days: z.number(),
  active: z.boolean(),
  updated_at: z.string(),
});
export type AdminPlan = z.infer<typeof adminPlanAnswerSchema>;
/** GET /api/admin/plans */
export const adminPlanListSchema = z.object({ data: z.array(adminPlanAnswerSchema) });

// ---- courses for sale (double-kick and course tiers)

export const adminProductsQuerySchema = adminListQuerySchema.extend({
  active: optionalEnum(['1', '0'] as const),
});

/** the most characters a course for sale's title takes */
export const PRODUCT_TITLE_MAX = 200;

/** PUT /api/admin/products/:slug. Spots: null = unlimited; never below the sold count (checked by the server). */
export const adminProductSchema = z
  .object({
    title: z
      .string()
      .overwrite(cleanDisplayText)
      .trim()
      .min(1, 'The title is required.')
      .max(PRODUCT_TITLE_MAX, `The title may not be greater than ${PRODUCT_TITLE_MAX} characters.`),
    course_id: z.number({ error: 'The course must be chosen from the list.' }).int().positive().nullable(),
    level: z.enum(COURSE_LEVELS, { error: 'The level must be basic or pro.' }).nullable(),
    price_cents: cents('price'),
    list_price_cents: cents('list price').nullable(),
    spots: z
      .number({ error: 'The spots must be a number.' })
      .int('The spots must be a whole number.')
      .min(0, 'The spots may not be negative.')
      .max(1_000_000, 'The spots may not be greater than 1,000,000.')
      .nullable(),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.list_price_cents !== null && v.list_price_cents <= v.price_cents)
      ctx.addIssue({ code: 'custom', path: ['list_price_cents'], message: 'The list price must be above the price.' });
  });
export type AdminProductInput = z.infer<typeof adminProductSchema>;
/** a course for sale as the console reads it */
export const adminProductAnswerSchema = z.object({
  slug: z.string(),
  kind: z.string(),
  title: z.string(),
  course_id: z.number().nullable(),
  course: z.object({ id: z.number(), title: z.string(), slug: z.string() }).nullable(),
  level: z.enum(COURSE_LEVELS).nullable(),
  price_cents: z.number(),
  list_price_cents: z.number().nullable(),
  /** null = unlimited */
  spots: z.number().nullable(),
  sold: z.number(),
  /** null = unlimited */
  spots_left: z.number().nullable(),
  active: z.boolean(),
});
export type AdminProduct = z.infer<typeof adminProductAnswerSchema>;
/** GET /api/admin/products */
export const adminProductPageSchema = adminPageSchema(adminProductAnswerSchema);
/** GET /api/admin/products/:slug: the product and the courses its form can choose */
export const adminProductDetailSchema = z.object({
  product: adminProductAnswerSchema,
  courses: z.array(z.object({ id: z.number(), title: z.string() })),
});
export const spotsBelowSold = (sold: number) => `The spots may not be fewer than the ${sold} already sold.`;

// ---- retention offers: the setting `retention_offers` (schema in retention.ts: the billing flow reads it too)

export { DEFAULT_RETENTION_OFFERS, RETENTION_SETTING, type RetentionOffers } from './commerce.ts';
export { retentionOffersSchema } from './retention.ts';

// ---- mentorship pricing: the setting `mentorship_pricing` (which options are the default, and which
// lower prices a link may offer; see docs/product/mentorship-pricing.md)

export const MENTORSHIP_PRICING_SETTING = 'mentorship_pricing';
/** The checkout's default flags, and whether a link's ?price2600=1 / ?downsell=1 may offer those lower prices. */
export const mentorshipPricingSchema = z
  .object({
    price2600: z.boolean(),
    price3900: z.boolean(),
    downsell: z.boolean(),
    showsix: z.boolean(),
    price2600ByLink: z.boolean().default(false),
    downsellByLink: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.price2600 && v.price3900)
      ctx.addIssue({
        code: 'custom',
        path: ['price3900'],
        message: `Choose either the ${formatMoney(2600_00)} or the ${formatMoney(3900_00)} full price, not both.`,
      });
  });
export type MentorshipPricing = z.infer<typeof mentorshipPricingSchema>;
export { DEFAULT_MENTORSHIP_PRICING } from './mentorship-checkout.ts';
/** GET /api/mentorship/checkout/options (public): the checkout's default flags and what links may offer */
export const mentorshipCheckoutOptionsSchema = z.object({ flags: mentorshipPricingSchema });
export type MentorshipCheckoutOptions = z.infer<typeof mentorshipCheckoutOptionsSchema>;

// ---- cancellations

export const CANCEL_OUTCOME_VALUES = [
  'cancel',
  'pause',
  'discount',
  'upgrade-yearly',
  'upgrade-lifetime',
  'lifetime-checkout',
] as const;
export const adminCancellationsQuerySchema = adminListQuerySchema.extend({
  reason: z.string().trim().max(200).optional(),
  outcome: optionalEnum(CANCEL_OUTCOME_VALUES),
});

// ---- webhook failures: signed provider deliveries that could not be applied

/** rejected: the content could not be read (answered 400); failed: applying it raised an error (the provider retries) */
export const WEBHOOK_FAILURE_KINDS = ['rejected', 'failed'] as const;
export type WebhookFailureKind = (typeof WEBHOOK_FAILURE_KINDS)[number];
export const WEBHOOK_FAILURE_STATES = ['open', 'resolved'] as const;
/** GET /api/admin/webhook-failures: search event id, type and reason; filter provider, kind, state; sort last_at | deliveries */
export const adminWebhookFailuresQuerySchema = adminListQuerySchema.extend({
  provider: optionalEnum(PROVIDERS),
  kind: optionalEnum(WEBHOOK_FAILURE_KINDS),
  state: optionalEnum(WEBHOOK_FAILURE_STATES),
});
/** how people name the providers */
export const PROVIDER_NAMES: Record<string, string> = { stripe: 'Stripe', paypal: 'PayPal', sandbox: 'Sandbox' };

/** POST /api/admin/webhook-failures/:id/retry */
export const WEBHOOK_RETRY_MESSAGES = {
  notFound: 'This webhook failure does not exist.',
  resolved: 'This event has been applied already.',
  noEventId: 'This delivery had no event id, so the event cannot be read again from the provider.',
  providerNotInUse: (provider: string) =>
    `This server no longer takes payments through ${provider}, so the event cannot be read again.`,
  unknownToProvider: (provider: string) => `${provider} no longer has this event, so it cannot be applied from here.`,
  providerUnreachable: (provider: string) => `${provider} could not be reached. Please try again in a moment.`,
  stillFailing: (reason: string) => `The event still could not be applied: ${reason}`,
  applied: 'The event was applied.',
  appliedBefore: 'The event had been applied already; the failure is marked resolved.',
  ignored: 'The event needs nothing from Backbeat; the failure is marked resolved.',
} as const;

export const adminWebhookFailureRowSchema = z.object({
  id: z.number(),
  provider: z.string(),
  event_id: z.string().nullable(),
  event_type: z.string().nullable(),
  kind: z.enum(WEBHOOK_FAILURE_KINDS),
  reason: z.string(),
  /** the body's keys without their values, e.g. `{id, type, data: {}}` */
  outline: z.string().nullable(),
  deliveries: z.number(),
  first_at: z.string(),
  last_at: z.string(),
  /** a later delivery of the same event was applied */
  resolved_at: z.string().nullable(),
});
export type AdminWebhookFailureRow = z.infer<typeof adminWebhookFailureRowSchema>;
/** GET /api/admin/webhook-failures */
export const adminWebhookFailurePageSchema = adminPageSchema(adminWebhookFailureRowSchema);
/** POST /api/admin/webhook-failures/:id/retry */
export const webhookRetryResultSchema = z.object({
  message: z.string(),
  outcome: z.enum(['applied', 'duplicate', 'ignored']),
});
