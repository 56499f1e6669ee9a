import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { flag, idSchema } from './http.ts';
import {
  DEFAULT_MENTORSHIP_PRICE,
  MENTORSHIP_ONE_TIME_PRICES,
  type MentorshipCardPayment,
  type MentorshipOneTimePrice,
} from './mentorship-checkout.ts';
import { formatMoney } from './money.ts';

// Mentorship (docs/product/mentorship.md): prices, payment options, wording and the shapes of the
// practice plan and accountability links, shared by the pages and the server. Amounts in cents.

// ---------------------------------------------------------------------------------------------
// Checkout: prices, options and wording are in mentorship-checkout.ts, which the
// public /mentorship/checkout page reads without loading zod (scripts/initial-js.ts); re-exported here.

export * from './mentorship-checkout.ts';

/** The flags that choose which options /mentorship/checkout shows (query string or page config). */
export const mentorshipCheckoutFlagsSchema = z.object({
  price2600: flag.optional(),
  price3900: flag.optional(),
  downsell: flag.optional(),
  showsix: flag.optional(),
});
export const mentorshipCardPaymentSchema = z.enum(['3200', '2700', '1800', '1300', '650', 'finance']);

// ---------------------------------------------------------------------------------------------
// Practice plan (docs/product/mentorship.md)

export const PRACTICE_PLAN_PHASES = ['phase1', 'phase2', 'phase3'] as const;
export type PracticePlanPhase = (typeof PRACTICE_PLAN_PHASES)[number];
/** Default day titles follow weekday names: the n-th day of a week is titled DAY_TITLES[n % 7]. */
export const DAY_TITLES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const defaultDayTitle = (index: number) => DAY_TITLES[((index % 7) + 7) % 7]!;
export const PRACTICE_PLAN_AUTOSAVE_MS = 200;
export const PRACTICE_PLAN_LIMITS = {
  weeksPerPhase: 52,
  daysPerWeek: 7,
  exercisesPerDay: 30,
  title: 200,
  link: 2000,
  notes: 5000,
  digits: 4,
} as const;
export const PRACTICE_PLAN_COLUMNS = [
  'Exercise',
  'Goal',
  'Ending Tempo 1',
  'Ending Tempo 2',
  'Ending Tempo 3',
  'Ending Tempo 4',
  'Time Played w/o Mistakes',
] as const;
export const EMPTY_WEEK_MESSAGE =
  "There isn't anything here yet. Your mentor is building your Practice Plan right now.";

/** Fields a student's save may change; everything else belongs to the mentor (admin). */
export const STUDENT_EXERCISE_FIELDS = [
  'endingTempo1',
  'endingTempo2',
  'endingTempo3',
  'endingTempo4',
  'timeWithoutMistakes',
] as const;
export const STUDENT_DAY_FIELDS = ['complete'] as const;

export const PRACTICE_PLAN_MESSAGES = {
  conflict:
    'Another mentor changed this practice plan while you were editing. Your last change was not saved; the plan now shows their version.',
  studentConflict:
    'This practice plan was saved in another window while you were editing. Your last change was not saved; the plan now shows the saved version.',
  digitsOnly: 'Numbers only, up to 4 digits.',
  notFound: 'This practice plan does not exist.',
} as const;

/** a BPM or minutes field: digits only, '' when empty */
const digits = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.digits, PRACTICE_PLAN_MESSAGES.digitsOnly)
  .regex(/^\d*$/, PRACTICE_PLAN_MESSAGES.digitsOnly);
/** ids are made by the client (crypto.randomUUID or similar) so both sides can merge by id */
const itemId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const httpLink = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.link)
  .refine((v) => v === '' || /^https?:\/\//i.test(v), 'Links must start with http:// or https://');

export const exerciseSchema = z.object({
  id: itemId,
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
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
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
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

/** a reusable day's exercise (title, link, notes, goal) */
export const reusableDayExerciseSchema = z.object({
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
  link: httpLink,
  notes: z.string().max(PRACTICE_PLAN_LIMITS.notes),
  goal: digits,
});
export type ReusableDayExercise = z.infer<typeof reusableDayExerciseSchema>;

export const reusableDayBodySchema = z.object({
  title: z.string().overwrite(cleanDisplayText).trim().min(1, 'Give the day a title.').max(PRACTICE_PLAN_LIMITS.title),
  exercises: z.array(reusableDayExerciseSchema).max(PRACTICE_PLAN_LIMITS.exercisesPerDay),
});

export const emptyPracticePlan = (): PracticePlan => ({ phase1: [], phase2: [], phase3: [], onlyShowLatest: false });

// ---------------------------------------------------------------------------------------------
// Accountability links (docs/product/mentorship.md)

export const ACCOUNTABILITY_DEBOUNCE_MS = 1000;
export const LINK_DISPLAY_LIMIT = 40;
export const ACCOUNTABILITY_LIMITS = { linksPerStudent: 200, label: 200, url: 2000 } as const;

/** "https://www.youtube.com/watch?v=abcdef..." → first 40 characters and an ellipsis */
export const truncateLink = (text: string, limit: number = LINK_DISPLAY_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit)}...` : text;

export const accountabilityLinkSchema = z.object({
  id: z.number(),
  url: z.string(),
  label: z.string(),
  created_at: z.string(),
});
export type AccountabilityLink = z.infer<typeof accountabilityLinkSchema>;

// ---------------------------------------------------------------------------------------------
// Mentorship lessons

/** POST /mentorship/lesson-completions */
export const mentorshipLessonCompletionBodySchema = z.object({ lesson_id: idSchema, complete: flag });

// ---------------------------------------------------------------------------------------------
// The mentorship area: dashboard overview, mentorship lessons, accountability
// link calls, and the mentors' (admins') student views. Answers are zod schemas so
// the pages' types come from here.

export const MENTORSHIP_STATUSES = ['active', 'past_due', 'defaulted', 'completed', 'canceled', 'refunded'] as const;
export type MentorshipStatus = (typeof MENTORSHIP_STATUSES)[number];
export const MENTORSHIP_STUDENTS_PER_PAGE = 20;
export const MENTORSHIP_RECENT_VIDEOS = 5;

export const MENTORSHIP_AREA_TEXT = {
  pastDue:
    'Your last instalment did not go through. Please check your payment details on your account page to keep your mentorship going.',
  noMentor: 'Your mentor is being assigned. You will get a notification as soon as they are ready for you.',
  notAStudent: 'This member is not a mentorship student.',
  mentorMustBeAdmin: 'Choose a mentor from the list: mentors are admins.',
  lessonNotFound: 'This mentorship lesson does not exist.',
} as const;

export const ACCOUNTABILITY_MESSAGES = {
  urlRequired: 'Enter the address of the link.',
  urlInvalid: 'Links must start with http:// or https://',
  urlTooLong: `Links can be up to ${ACCOUNTABILITY_LIMITS.url} characters.`,
  labelTooLong: `Labels can be up to ${ACCOUNTABILITY_LIMITS.label} characters.`,
  tooMany: `This student already has ${ACCOUNTABILITY_LIMITS.linksPerStudent} links. Delete one to add another.`,
  notFound: 'This link does not exist.',
  deleteConfirm: 'Delete this link? This cannot be undone.',
} as const;

const isHttpUrl = (value: string) => {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
};

/** GET /mentorship/accountability?student_id= (a student's own links when left out) */
export const accountabilityQuerySchema = z.object({ student_id: idSchema.optional() });

/** POST /mentorship/accountability/links */
export const addAccountabilityLinkBodySchema = z.object({
  student_id: idSchema,
  url: z
    .string({ error: ACCOUNTABILITY_MESSAGES.urlRequired })
    .trim()
    .min(1, ACCOUNTABILITY_MESSAGES.urlRequired)
    .max(ACCOUNTABILITY_LIMITS.url, ACCOUNTABILITY_MESSAGES.urlTooLong)
    .refine(isHttpUrl, ACCOUNTABILITY_MESSAGES.urlInvalid),
  label: z
    .string()
    .overwrite(cleanDisplayText)
    .trim()
    .max(ACCOUNTABILITY_LIMITS.label, ACCOUNTABILITY_MESSAGES.labelTooLong)
    .default(''),
});

/** POST /mentorship/accountability/save-label: labels only, of that student's links */
export const saveAccountabilityLabelsBodySchema = z.object({
  student_id: idSchema,
  links: z
    .array(
      z.object({
        id: idSchema,
        label: z
          .string()
          .overwrite(cleanDisplayText)
          .max(ACCOUNTABILITY_LIMITS.label, ACCOUNTABILITY_MESSAGES.labelTooLong),
      }),
    )
    .max(ACCOUNTABILITY_LIMITS.linksPerStudent),
});

export const accountabilityLinksAnswerSchema = z.object({ links: z.array(accountabilityLinkSchema) });
export type AccountabilityLinksAnswer = z.infer<typeof accountabilityLinksAnswerSchema>;

const personSchema = z.object({ id: z.number(), name: z.string(), avatarUrl: z.string(), profileUrl: z.string() });
export type MentorshipPerson = z.infer<typeof personSchema>;

/** days complete / total over the three phases; the current week is the first with an incomplete day */
export const planProgressSchema = z.object({
  daysComplete: z.number(),
  daysTotal: z.number(),
  currentWeek: z
    .object({ phase: z.number(), week: z.number(), daysComplete: z.number(), daysTotal: z.number() })
    .nullable(),
});
export type PlanProgress = z.infer<typeof planProgressSchema>;

export function planProgress(phases: PracticePlanPhases | null | undefined): PlanProgress {
  let daysComplete = 0;
  let daysTotal = 0;
  let currentWeek: PlanProgress['currentWeek'] = null;
  PRACTICE_PLAN_PHASES.forEach((key, p) => {
    (phases?.[key] ?? []).forEach((week, w) => {
      const done = week.filter((d) => d.complete).length;
      daysComplete += done;
      daysTotal += week.length;
      if (!currentWeek && done < week.length)
        currentWeek = { phase: p + 1, week: w + 1, daysComplete: done, daysTotal: week.length };
    });
  });
  return { daysComplete, daysTotal, currentWeek };
}

export const mentorshipPaymentSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('instalments'),
    paid: z.number(),
    total: z.number(),
    amountCents: z.number(),
    status: z.enum(['active', 'past_due', 'defaulted', 'completed', 'canceled']),
    nextDueAt: z.string().nullable(),
  }),
  z.object({ kind: z.literal('paid_in_full'), option: z.string() }),
  z.object({ kind: z.literal('none') }),
]);
export type MentorshipPayment = z.infer<typeof mentorshipPaymentSchema>;

const countsSchema = z.object({ total: z.number(), awaitingFeedback: z.number() });
const lessonCountsSchema = z.object({ complete: z.number(), total: z.number() });

/** GET /api/mentorship/overview for a student */
export const studentOverviewSchema = z.object({
  role: z.literal('student'),
  mentor: personSchema.nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  plan: planProgressSchema,
  links: z.number(),
  videos: countsSchema,
  lessons: lessonCountsSchema,
  payment: mentorshipPaymentSchema,
  /** an instalment is late: the dashboard shows the banner */
  pastDue: z.boolean(),
});
/** GET /api/mentorship/overview for an admin (mentor) */
export const mentorOverviewSchema = z.object({
  role: z.literal('admin'),
  myStudents: z.number(),
  allStudents: z.number(),
  videosAwaitingFeedback: z.number(),
  myVideosAwaitingFeedback: z.number(),
});
export const mentorshipOverviewSchema = z.discriminatedUnion('role', [studentOverviewSchema, mentorOverviewSchema]);
export type StudentOverview = z.infer<typeof studentOverviewSchema>;
export type MentorOverview = z.infer<typeof mentorOverviewSchema>;
export type MentorshipOverview = z.infer<typeof mentorshipOverviewSchema>;

/** GET /api/mentorship/lessons */
export const mentorshipCourseSchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  lessons: z.array(z.object({ id: z.number(), title: z.string(), description: z.string(), complete: z.boolean() })),
  progress: lessonCountsSchema,
});
export const mentorshipLessonsAnswerSchema = z.object({ courses: z.array(mentorshipCourseSchema) });
export type MentorshipCourse = z.infer<typeof mentorshipCourseSchema>;

const lessonLinkSchema = z.object({ id: z.number(), title: z.string() }).nullable();
/** GET /api/mentorship/lessons/{id} (no quiz in the mentorship area: docs/product/mentorship.md) */
export const mentorshipLessonSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video_url: z.string().nullable(),
  course: z.object({ id: z.number(), slug: z.string(), title: z.string() }),
  number: z.number(),
  count: z.number(),
  previous: lessonLinkSchema,
  next: lessonLinkSchema,
  complete: z.boolean(),
});
export const mentorshipLessonAnswerSchema = z.object({ lesson: mentorshipLessonSchema });
export type MentorshipLesson = z.infer<typeof mentorshipLessonSchema>;

/** GET /api/mentorship/students?mine=1&q=&page= (admins) */
export const mentorshipStudentsQuerySchema = z.object({
  mine: flag.optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const mentorshipStudentSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  avatarUrl: z.string(),
  mentor: z.object({ id: z.number(), name: z.string() }).nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  planProgress: z.object({ daysComplete: z.number(), daysTotal: z.number() }),
  lastActivity: z.string().nullable(),
  videosAwaitingFeedback: z.number(),
});
export const mentorshipStudentsAnswerSchema = z.object({
  students: z.array(mentorshipStudentSummarySchema),
  more: z.boolean(),
});
export type MentorshipStudentSummary = z.infer<typeof mentorshipStudentSummarySchema>;

/** GET /api/mentorship/students/{id} (admins) */
export const mentorshipStudentDetailSchema = z.object({
  student: z.object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    email: z.string(),
    avatarUrl: z.string(),
    profileUrl: z.string(),
    joinedAt: z.string(),
  }),
  mentor: personSchema.nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  option: z.string().nullable(),
  payment: mentorshipPaymentSchema,
  pastDue: z.boolean(),
  plan: planProgressSchema,
  lessons: lessonCountsSchema,
  videos: countsSchema,
  recentVideos: z.array(
    z.object({ id: z.number(), title: z.string(), created_at: z.string(), hasFeedback: z.boolean() }),
  ),
  links: z.array(accountabilityLinkSchema),
  lastActivity: z.string().nullable(),
});
export type MentorshipStudentDetail = z.infer<typeof mentorshipStudentDetailSchema>;

/** POST /api/mentorship/students/{id}/mentor: an admin's id, or null (or '') to unassign */
export const assignMentorBodySchema = z.object({
  mentor_id: z.preprocess((v) => (v === '' || v === undefined ? null : v), idSchema.nullable()),
});

/** GET /api/mentorship/mentors: admins, those marked as mentors first */
export const mentorsAnswerSchema = z.object({
  mentors: z.array(z.object({ id: z.number(), name: z.string(), avatarUrl: z.string(), isMentor: z.boolean() })),
});
export type MentorOption = z.infer<typeof mentorsAnswerSchema>['mentors'][number];

// ---------------------------------------------------------------------------------------------
// Mentorship checkout calls (docs/product/mentorship.md).

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

/** the paying calls' answer: go to `url`, or authenticate the card first */
export type MentorshipPayAnswer = { url: string } | { requires_action: true; url?: string; client_secret?: string };

/** GET /api/mentorship/checkout: who is buying and whether they already are a student */
export interface MentorshipCheckoutAnswer {
  user: { name: string; email: string } | null;
  enrolled: boolean;
}

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
