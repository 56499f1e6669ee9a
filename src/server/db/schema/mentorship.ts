import {
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  bigint,
  boolean,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import type { PracticePlanPhases, ReusableDayExercise } from '#shared/mentorship';

// Mentorship (docs/product/mentorship.md): the student's enrolment and mentor, instalment plans, the
// practice plan, reusable plan days, accountability links, chunked uploads and video submissions.

const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** One row per mentorship student: who mentors them and how they are paying. */
export const mentorships = pgTable(
  'mentorships',
  {
    id: serial('id').primaryKey(),
    studentId: userRef('student_id'),
    /** an admin with is_mentor (or any admin); null until assigned */
    mentorId: integer('mentor_id').references(() => users.id, { onDelete: 'set null' }),
    /** the option bought: onetime, onetime1600, onetime2600, onetime3900, 3, 6, card3200, card2700, card1800, card1300, card650, finance */
    option: text('option').notNull(),
    /** active: access; past_due: an instalment is late (access kept in the grace period); defaulted: access removed; completed: paid in full (access kept); refunded/canceled: access removed */
    status: text('status', { enum: ['active', 'past_due', 'defaulted', 'completed', 'canceled', 'refunded'] })
      .notNull()
      .default('active'),
    orderId: integer('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mentorships_student_unique').on(t.studentId), index('mentorships_mentor_idx').on(t.mentorId)],
);

/** An instalment plan: a provider subscription that stops after `instalmentsTotal` payments. */
export const instalmentPlans = pgTable(
  'instalment_plans',
  {
    id: serial('id').primaryKey(),
    userId: userRef('user_id'),
    orderId: integer('order_id'),
    option: text('option').notNull(),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'paypal'] }).notNull(),
    /** the provider's subscription id (PayPal agreement_id, Stripe subscription) */
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    instalmentsTotal: integer('instalments_total').notNull(),
    instalmentsPaid: integer('instalments_paid').notNull().default(0),
    status: text('status', { enum: ['active', 'past_due', 'defaulted', 'completed', 'canceled'] })
      .notNull()
      .default('active'),
    paymentMethod: text('payment_method').notNull().default(''),
    nextDueAt: timestamp('next_due_at', { withTimezone: true }),
    /** when the first missed instalment happened (grace period starts) */
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('instalment_plans_provider_ref_unique').on(t.provider, t.providerRef),
    index('instalment_plans_user_idx').on(t.userId),
  ],
);

/** Each instalment collected or missed (one row per provider invoice). */
export const instalmentPayments = pgTable(
  'instalment_payments',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => instalmentPlans.id, { onDelete: 'cascade' }),
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['paid', 'failed'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('instalment_payments_ref_unique').on(t.planId, t.providerRef, t.status)],
);

/**
 * The practice plan: phase1..3, each a list of weeks, each week a list of days.
 * Days and exercises carry stable ids so that the two sides' saves merge by id. `adminVersion` and
 * `studentVersion` count each side's saves: a save names the versions it started from, so a stale
 * save is detected (see docs/mentorship.md).
 */
export const practicePlans = pgTable(
  'practice_plans',
  {
    id: serial('id').primaryKey(),
    studentId: userRef('student_id'),
    phases: jsonb('phases').$type<PracticePlanPhases>().notNull(),
    onlyShowLatest: boolean('only_show_latest').notNull().default(false),
    adminVersion: integer('admin_version').notNull().default(0),
    studentVersion: integer('student_version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by'),
  },
  (t) => [uniqueIndex('practice_plans_student_unique').on(t.studentId)],
);

/** Reusable practice plan days an admin inserts into a plan (GET /mentorship/practice-plan-days). */
export const practicePlanDays = pgTable('practice_plan_days', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  exercises: jsonb('exercises').$type<ReusableDayExercise[]>().notNull().default([]),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Accountability links: url, label, created_at per student. */
export const accountabilityLinks = pgTable(
  'accountability_links',
  {
    id: serial('id').primaryKey(),
    studentId: userRef('student_id'),
    url: text('url').notNull(),
    label: text('label').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('accountability_links_student_idx').on(t.studentId, t.id)],
);

/**
 * A chunked upload session (start/upload/finish). Chunks are written at their offsets
 * into one partial file; `received` lists the byte ranges [start, end) already stored, so an
 * interrupted upload resumes. Abandoned sessions are removed by the cleanup job.
 */
export const uploadSessions = pgTable(
  'upload_sessions',
  {
    id: text('id').primaryKey(),
    userId: userRef('user_id'),
    purpose: text('purpose').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    received: jsonb('received').$type<Array<[number, number]>>().notNull().default([]),
    status: text('status', { enum: ['open', 'complete', 'aborted', 'rejected'] })
      .notNull()
      .default('open'),
    /** the finished file, relative to the storage root */
    path: text('path'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('upload_sessions_user_idx').on(t.userId, t.status),
    index('upload_sessions_updated_idx').on(t.status, t.updatedAt),
  ],
);

/** A practice video a student sent to their mentor, and the mentor's written feedback. */
export const videoSubmissions = pgTable(
  'video_submissions',
  {
    id: serial('id').primaryKey(),
    studentId: userRef('student_id'),
    title: text('title').notNull(),
    note: text('note').notNull().default(''),
    /** relative to the storage root */
    path: text('path').notNull(),
    originalName: text('original_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    feedback: text('feedback'),
    feedbackBy: integer('feedback_by').references(() => users.id, { onDelete: 'set null' }),
    feedbackAt: timestamp('feedback_at', { withTimezone: true }),
    /** an admin's WebVTT caption file, relative to the private storage root */
    captionsPath: text('captions_path'),
    /** the captions' language tag ("en") */
    captionsLang: text('captions_lang'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('video_submissions_student_idx').on(t.studentId, t.id)],
);
