import { z } from 'zod';
import { flag, idSchema } from './http.ts';

// Mentorship (spec 002 §2–§9, issue 8): prices, payment options, wording and the shapes of the
// practice plan and accountability links, shared by the pages and the server. Amounts in cents.

// ---------------------------------------------------------------------------------------------
// Checkout (spec 002 §4 "Mentorship checkout steps", §9 "Mentorship prices")

/** The payment steps of /mentorship/checkout. */
export const MENTORSHIP_CHECKOUT_OPTIONS = ['onetime', 'onetime1600', 'onetime2600', 'onetime3900', '3', '6'] as const;
export type MentorshipCheckoutOption = (typeof MENTORSHIP_CHECKOUT_OPTIONS)[number];

/** One-time prices of POST /mentorship/create-checkout (`price`, dollars; 3200 is the default). */
export const MENTORSHIP_ONE_TIME_PRICES = [3200, 1600, 2600, 3900] as const;
export type MentorshipOneTimePrice = (typeof MENTORSHIP_ONE_TIME_PRICES)[number];
export const DEFAULT_MENTORSHIP_PRICE: MentorshipOneTimePrice = 3200;
/** 3,200 includes a 700 pay-in-full discount from the 3,900 list price */
export const MENTORSHIP_LIST_PRICE = 3900;
export const MENTORSHIP_PAY_IN_FULL_DISCOUNT = 700;

/** The PayPal instalment plans of /mentorship/checkout (POST /mentorship/payment-plan). */
export const MENTORSHIP_INSTALMENT_PLANS = {
  '3': { instalments: 3, amountCents: 1200_00, totalCents: 3600_00 },
  '6': { instalments: 6, amountCents: 650_00, totalCents: 3900_00 },
} as const;
export type MentorshipInstalmentOption = keyof typeof MENTORSHIP_INSTALMENT_PLANS;

export const onetimeOptionPrice: Record<Exclude<MentorshipCheckoutOption, '3' | '6'>, MentorshipOneTimePrice> = {
  onetime: 3200,
  onetime1600: 1600,
  onetime2600: 2600,
  onetime3900: 3900,
};

/** The flags that choose which options /mentorship/checkout shows (query string or page config). */
export const mentorshipCheckoutFlagsSchema = z.object({
  price2600: flag.optional(),
  price3900: flag.optional(),
  downsell: flag.optional(),
  showsix: flag.optional(),
});
export type MentorshipCheckoutFlags = { price2600?: boolean; price3900?: boolean; downsell?: boolean; showsix?: boolean };

/**
 * Which payment options the page offers for these flags (spec 002 §4): downsell shows only the
 * 1,600 option; otherwise the full price (3,200, or 2,600 / 3,900 when their flags are set) and the
 * 3-payment plan; showsix adds the 6-payment plan and keeps the 3-payment plan as a hidden option.
 * `hidden` options are valid when chosen (e.g. by a link) but not listed.
 */
export function mentorshipOptions(flags: MentorshipCheckoutFlags): { shown: MentorshipCheckoutOption[]; hidden: MentorshipCheckoutOption[] } {
  if (flags.downsell) return { shown: ['onetime1600'], hidden: [] };
  const onetime: MentorshipCheckoutOption = flags.price2600 ? 'onetime2600' : flags.price3900 ? 'onetime3900' : 'onetime';
  if (flags.showsix) return { shown: [onetime, '6'], hidden: ['3'] };
  return { shown: [onetime, '3'], hidden: [] };
}

/** /mentorship/stripe/{payment} (spec 002 §9 "Card checkout amounts"). */
export const MENTORSHIP_CARD_PAYMENTS = {
  '3200': { label: 'Pay in full', amountCents: 3200_00, instalments: 1, totalCents: 3200_00 },
  '2700': { label: 'Black Friday: pay in full', amountCents: 2700_00, instalments: 1, totalCents: 2700_00 },
  '1800': { label: '2 monthly payments', amountCents: 1800_00, instalments: 2, totalCents: 3600_00 },
  '1300': { label: '3 monthly payments', amountCents: 1300_00, instalments: 3, totalCents: 3900_00 },
  '650': { label: '6 monthly payments', amountCents: 650_00, instalments: 6, totalCents: 3900_00 },
  finance: { label: 'Finance with monthly payments', amountCents: 3900_00, instalments: 1, totalCents: 3900_00 },
} as const;
export type MentorshipCardPayment = keyof typeof MENTORSHIP_CARD_PAYMENTS;
export const MENTORSHIP_CARD_PAYMENT_KEYS = Object.keys(MENTORSHIP_CARD_PAYMENTS) as MentorshipCardPayment[];
export const mentorshipCardPaymentSchema = z.enum(['3200', '2700', '1800', '1300', '650', 'finance']);

/** the card provider's return address after confirming set-up (spec 002 §2) */
export const mentorshipChargeUrl = (payment: MentorshipCardPayment) => `/mentorship/stripe/charge?payment=${payment}`;

/** PayPal buttons are initialised this long after display (spec 002 §4, §9) */
export const PAYPAL_BUTTONS_DELAY_MS = 1000;

/** A missed instalment keeps access this many days while the provider retries; then access ends. */
export const MENTORSHIP_GRACE_DAYS = 7;

export const MENTORSHIP_MESSAGES = {
  /** spec 002 §8 */
  instalmentPlanFailed: 'There was an error processing your installment plan. Please try again.',
  checkoutLinkFailed: 'There was an error getting the PayPal checkout link. Please try again.',
  clientSecretFailed: 'There was an error retrieving the Stripe client secret. Please refresh this page and try again.',
  registrationFailed: 'There was an error processing your registration. Please refresh this page and try again.',
  /** ours */
  alreadyEnrolled: 'You are already a mentorship student. Your mentor is waiting for you in the mentorship area.',
  paymentPending: 'Your payment is being processed. This page will update when it completes.',
  mentorshipOnly: 'This page is for mentorship students. Join the mentorship programme to open it.',
  notYourStudent: 'You can only see your own mentorship records.',
} as const;

// ---------------------------------------------------------------------------------------------
// Practice plan (spec 002 §2, §3, §4)

export const PRACTICE_PLAN_PHASES = ['phase1', 'phase2', 'phase3'] as const;
export type PracticePlanPhase = (typeof PRACTICE_PLAN_PHASES)[number];
/** Default day titles follow weekday names: the n-th day of a week is titled DAY_TITLES[n % 7]. */
export const DAY_TITLES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const defaultDayTitle = (index: number) => DAY_TITLES[((index % 7) + 7) % 7]!;
export const PRACTICE_PLAN_AUTOSAVE_MS = 200;
export const PRACTICE_PLAN_LIMITS = { weeksPerPhase: 52, daysPerWeek: 7, exercisesPerDay: 30, title: 200, link: 2000, notes: 5000, digits: 4 } as const;
export const PRACTICE_PLAN_COLUMNS = ['Exercise', 'Goal', 'Ending Tempo 1', 'Ending Tempo 2', 'Ending Tempo 3', 'Ending Tempo 4', 'Time Played w/o Mistakes'] as const;
export const EMPTY_WEEK_MESSAGE = "There isn't anything here yet. Your mentor is building your Practice Plan right now.";

/** Fields a student's save may change; everything else belongs to the mentor (admin). */
export const STUDENT_EXERCISE_FIELDS = ['endingTempo1', 'endingTempo2', 'endingTempo3', 'endingTempo4', 'timeWithoutMistakes'] as const;
export const STUDENT_DAY_FIELDS = ['complete'] as const;

export const PRACTICE_PLAN_MESSAGES = {
  conflict: 'Another mentor changed this practice plan while you were editing. Your last change was not saved; the plan now shows their version.',
  digitsOnly: 'Numbers only, up to 4 digits.',
  notFound: 'This practice plan does not exist.',
} as const;

/** a BPM or minutes field: digits only (spec 002 §5), '' when empty */
const digits = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.digits, PRACTICE_PLAN_MESSAGES.digitsOnly)
  .regex(/^\d*$/, PRACTICE_PLAN_MESSAGES.digitsOnly);
/** ids are made by the client (crypto.randomUUID or similar) so both sides can merge by id */
const itemId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
const httpLink = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.link)
  .refine((v) => v === '' || /^https?:\/\//i.test(v), 'Links must start with http:// or https://');

export const exerciseSchema = z.object({
  id: itemId,
  title: z.string().max(PRACTICE_PLAN_LIMITS.title),
  link: httpLink,
  notes: z.string().max(PRACTICE_PLAN_LIMITS.notes),
  goal: digits,
  endingTempo1: digits,
  endingTempo2: digits,
  endingTempo3: digits,
  endingTempo4: digits,
  timeWithoutMistakes: digits,
});
export type Exercise = z.infer<typeof exerciseSchema>;

export const daySchema = z.object({
  id: itemId,
  title: z.string().max(PRACTICE_PLAN_LIMITS.title),
  complete: z.boolean(),
  exercises: z.array(exerciseSchema).max(PRACTICE_PLAN_LIMITS.exercisesPerDay),
});
export type PracticeDay = z.infer<typeof daySchema>;

/** a week is a list of days */
export const weekSchema = z.array(daySchema).max(PRACTICE_PLAN_LIMITS.daysPerWeek);
export type PracticeWeek = z.infer<typeof weekSchema>;

export const practicePlanPhasesSchema = z.object({
  phase1: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
  phase2: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
  phase3: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
});
export type PracticePlanPhases = z.infer<typeof practicePlanPhasesSchema>;

/** the `practice_plan` of POST /mentorship/practice-plan */
export const practicePlanSchema = practicePlanPhasesSchema.extend({ onlyShowLatest: z.boolean().optional() });
export type PracticePlan = z.infer<typeof practicePlanSchema>;

/** POST /mentorship/practice-plan: `id` is the plan's id; the versions are the ones the editor started from. */
export const savePracticePlanBodySchema = z.object({
  practice_plan: practicePlanSchema,
  id: idSchema,
  admin_version: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  student_version: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});

/** the plan as GET /mentorship/practice-plan and the save answer it */
export const practicePlanAnswerSchema = z.object({
  id: z.number(),
  student: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  practice_plan: practicePlanSchema,
  admin_version: z.number(),
  student_version: z.number(),
  updated_at: z.string(),
});
export type PracticePlanAnswer = z.infer<typeof practicePlanAnswerSchema>;

/** a reusable day's exercise (spec 002 §3: title, link, notes, goal) */
export const reusableDayExerciseSchema = z.object({
  title: z.string().max(PRACTICE_PLAN_LIMITS.title),
  link: httpLink,
  notes: z.string().max(PRACTICE_PLAN_LIMITS.notes),
  goal: digits,
});
export type ReusableDayExercise = z.infer<typeof reusableDayExerciseSchema>;

export const reusableDayBodySchema = z.object({
  title: z.string().trim().min(1, 'Give the day a title.').max(PRACTICE_PLAN_LIMITS.title),
  exercises: z.array(reusableDayExerciseSchema).max(PRACTICE_PLAN_LIMITS.exercisesPerDay),
});

export const emptyPracticePlan = (): PracticePlan => ({ phase1: [], phase2: [], phase3: [], onlyShowLatest: false });

// ---------------------------------------------------------------------------------------------
// Accountability links (spec 002 §3, §4, §9)

export const ACCOUNTABILITY_DEBOUNCE_MS = 1000;
export const LINK_DISPLAY_LIMIT = 40;
export const ACCOUNTABILITY_LIMITS = { linksPerStudent: 200, label: 200, url: 2000 } as const;

/** "https://www.youtube.com/watch?v=abcdef..." → first 40 characters and an ellipsis */
export const truncateLink = (text: string, limit: number = LINK_DISPLAY_LIMIT) => (text.length > limit ? `${text.slice(0, limit)}...` : text);

export const accountabilityLinkSchema = z.object({
  id: z.number(),
  url: z.string(),
  label: z.string(),
  created_at: z.string(),
});
export type AccountabilityLink = z.infer<typeof accountabilityLinkSchema>;

// ---------------------------------------------------------------------------------------------
// Mentorship lessons

/** POST /mentorship/lesson-completions (spec 002 §7) */
export const mentorshipLessonCompletionBodySchema = z.object({ lesson_id: idSchema, complete: flag });
