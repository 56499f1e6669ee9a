import { z } from './zod.ts';
import { COURSE_LEVELS, DOUBLE_KICK_TIERS, type CourseLevel } from './commerce.ts';
import { PRODUCT_TITLE_MAX } from './admin-commerce.ts';

// Double-kick and course registration (docs/product/course-products.md).
// Prices are integer cents decided by the server; the pages only show them.

/** The course the double-kick tiers open (when it exists). */
export const DOUBLE_KICK_COURSE_SLUG = 'double-kick-basics';
export const DOUBLE_KICK_SLUGS = DOUBLE_KICK_TIERS.map((t) => t.slug) as [string, ...string[]];

/** Every other members-only course gets a Basic and a Pro tier: `course_{id}_basic` / `course_{id}_pro`. */
export const COURSE_TIER_PRICES = {
  basic: { priceCents: 49_00, listPriceCents: 79_00 },
  pro: { priceCents: 99_00, listPriceCents: 149_00 },
} as const satisfies Record<CourseLevel, { priceCents: number; listPriceCents: number }>;
export const courseTierSlug = (courseId: number, level: CourseLevel) => `course_${courseId}_${level}`;
export const LEVEL_TITLES: Record<CourseLevel, string> = { basic: 'Basic', pro: 'Pro' };

/**
 * A course tier's title as the academy names it, "<course>: Basic": within the title's limit, so the
 * console can save the tier as it is. A course named at that limit itself is cut short with an ellipsis,
 * and the level still shows.
 */
export function tierTitle(course: string, level: CourseLevel): string {
  const suffix = `: ${LEVEL_TITLES[level]}`;
  const room = PRODUCT_TITLE_MAX - suffix.length;
  if (course.length <= room) return `${course}${suffix}`;
  let cut = '';
  // by code point, never half of one; the ellipsis takes one character
  for (const char of course) {
    if (cut.length + char.length > room - 1) break;
    cut += char;
  }
  return `${cut.trimEnd()}…${suffix}`;
}

/**
 * What the buyer gets with each tier: both open the whole course for good (the tiers differ in their
 * prices and spots only; what Pro adds is for the product owner to define: docs/product/course-products.md).
 */
const INCLUDED = ['Every lesson of the course', 'Notation and play-along paths', 'Lifetime access'];
export const LEVEL_FEATURES: Record<CourseLevel, string[]> = { basic: INCLUDED, pro: INCLUDED };

const AFFILIATE_MESSAGE = 'The affiliate code may only contain letters, numbers, dashes and underscores.';

/** An affiliate as the register and checkout addresses carry it: short slug-like text only. */
export const AFFILIATE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const cleanAffiliate = (value: string | null | undefined): string | null => {
  const v = (value ?? '').trim();
  return AFFILIATE_PATTERN.test(v) ? v : null;
};
export const affiliateSchema = z
  .string()
  .trim()
  .max(40, AFFILIATE_MESSAGE)
  .optional()
  .nullable()
  .transform((v, ctx) => {
    if (!v) return null;
    if (!AFFILIATE_PATTERN.test(v)) {
      ctx.addIssue({ code: 'custom', message: AFFILIATE_MESSAGE });
      return z.NEVER;
    }
    return v;
  });

export const PRODUCT_MESSAGES = {
  alreadyOwned: 'You already own this course, so there is nothing to pay. Enjoy the lessons!',
  affiliateInvalid: AFFILIATE_MESSAGE,
  paypalFailed: 'The PayPal payment could not be completed. You have not been charged. Please try again.',
  chooseTier: 'Please choose Basic or Pro to continue.',
  unknownProduct: 'This product is not available.',
  needsAuthentication: 'Your bank asks you to confirm this card. Please enter it again and complete the check.',
} as const;

/** One tier as the register and checkout pages receive it. */
export const tierSchema = z.object({
  slug: z.string(),
  level: z.enum(COURSE_LEVELS),
  title: z.string(),
  price_cents: z.number(),
  list_price_cents: z.number().nullable(),
  /** null: unlimited */
  spots: z.number().nullable(),
  spots_left: z.number().nullable(),
  sold_out: z.boolean(),
});
export type Tier = z.infer<typeof tierSchema>;

/** GET /api/products/double-kick */
export const doubleKickResponseSchema = z.object({
  data: z.object({
    course: z.object({ id: z.number(), slug: z.string(), title: z.string() }).nullable(),
    owned: z.boolean(),
    tiers: z.array(tierSchema),
  }),
});

/**
 * GET /api/products/course/{courseId}: the course object (id, price_basic_html, price_pro_html).
 * The price HTML is built by the server from numbers only (never from stored text).
 */
export const courseProductResponseSchema = z.object({
  data: z.object({
    id: z.number(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    price_basic_html: z.string(),
    price_pro_html: z.string(),
    price_basic: z.number(),
    price_pro: z.number(),
    owned: z.boolean(),
    tiers: z.array(tierSchema),
  }),
});

/** the body of the payment calls; any amount sent is ignored (the server prices from its catalogue) */
export const productPaymentBodySchema = z.object({
  affiliate: affiliateSchema,
  /** a double click or a retry sends the same key (hidden field; the `Idempotency-Key` header works too) */
  idempotency_key: z.string().trim().max(100).optional(),
});
export const productCardBodySchema = productPaymentBodySchema.extend({
  stripeToken: z
    .string({ error: 'Your card details are required.' })
    .trim()
    .min(1, 'Your card details are required.')
    .max(255),
});

/** where the checkout pages live, for the login link and PayPal's return */
export const doubleKickCheckoutUrl = (slug: string, affiliate: string | null) =>
  `/checkout/double-kick-mastery?product=${encodeURIComponent(slug)}${affiliate ? `&affiliate=${encodeURIComponent(affiliate)}` : ''}`;
export const courseCheckoutUrl = (courseId: number, level: CourseLevel, affiliate: string | null) =>
  `/checkout/course?course=${courseId}&level=${level}${affiliate ? `&affiliate=${encodeURIComponent(affiliate)}` : ''}`;

/** the PayPal return's outcome as the checkout page reads it (?paypal=...) */
export const PAYPAL_OUTCOMES = ['canceled', 'failed', 'sold_out', 'owned'] as const;
export type PaypalOutcome = (typeof PAYPAL_OUTCOMES)[number];
