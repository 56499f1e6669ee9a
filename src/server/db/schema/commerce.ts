import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// Commerce. Amounts are integer cents; the server decides every price from
// these tables and src/shared/commerce.ts, never from what a browser sends.

/** The membership checkout plan object (one row per checkout slug). */
export const checkoutPlans = pgTable('checkout_plans', {
  slug: text('slug').primaryKey(),
  heading: text('heading').notNull(),
  subheading: text('subheading').notNull().default(''),
  hasTrial: boolean('has_trial').notNull().default(false),
  monthlyPriceCents: integer('monthly_price_cents').notNull(),
  yearlyPriceCents: integer('yearly_price_cents').notNull(),
  lifetimePriceCents: integer('lifetime_price_cents').notNull(),
  monthlyCrossedOutCents: integer('monthly_crossed_out_cents'),
  yearlyCrossedOutCents: integer('yearly_crossed_out_cents'),
  lifetimeCrossedOutCents: integer('lifetime_crossed_out_cents'),
  monthlySalesTag: text('monthly_sales_tag'),
  yearlySalesTag: text('yearly_sales_tag'),
  lifetimeSalesTag: text('lifetime_sales_tag'),
  monthlyTitle: text('monthly_title').notNull().default('Monthly'),
  monthlyTrialDays: integer('monthly_trial_days').notNull().default(0),
  yearlyTrialDays: integer('yearly_trial_days').notNull().default(0),
  active: boolean('active').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time products: double-kick tiers and course tiers, with limited spots. */
export const products = pgTable('products', {
  slug: text('slug').primaryKey(),
  kind: text('kind', { enum: ['course'] })
    .notNull()
    .default('course'),
  title: text('title').notNull(),
  courseId: integer('course_id'),
  /** basic | pro */
  level: text('level'),
  priceCents: integer('price_cents').notNull(),
  listPriceCents: integer('list_price_cents'),
  /** null = unlimited; `sold` only grows inside the transaction that records a paid order */
  spots: integer('spots'),
  sold: integer('sold').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** A purchase attempt and its outcome. The idempotency key makes a double submit one order. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** membership | course | mentorship */
    kind: text('kind').notNull(),
    /** checkout slug (membership), product slug (course), payment option (mentorship) */
    productSlug: text('product_slug').notNull(),
    /** membership: monthly | yearly | lifetime */
    plan: text('plan'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'paypal'] }).notNull(),
    providerRef: text('provider_ref'),
    status: text('status', { enum: ['pending', 'requires_action', 'paid', 'failed', 'refunded', 'canceled'] })
      .notNull()
      .default('pending'),
    failureMessage: text('failure_message'),
    affiliate: text('affiliate'),
    idempotencyKey: text('idempotency_key').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * What this unfinished purchase holds for its member while the provider is charging:
     * `membership`, `course:{courseId}` or `mentorship`. Set before the provider is asked to charge,
     * cleared once the order's outcome is written (granted, failed, refunded); a member has at most
     * one order holding each (orders_one_hold), so a second tab's purchase is refused, not charged.
     */
    hold: text('hold'),
    /** when the hold was taken (an unfinished purchase lets go of it after payments' HOLD_MINUTES) */
    heldAt: timestamp('held_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_idempotency_unique').on(t.idempotencyKey),
    uniqueIndex('orders_provider_ref_unique').on(t.provider, t.providerRef),
    index('orders_user_idx').on(t.userId, t.id),
    uniqueIndex('orders_one_hold')
      .on(t.userId, t.hold)
      .where(sql`${t.hold} is not null`),
  ],
);

/** A recurring membership (monthly or yearly) at a provider. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: integer('order_id'),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'paypal'] }).notNull(),
    providerRef: text('provider_ref').notNull(),
    checkoutSlug: text('checkout_slug').notNull(),
    plan: text('plan', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status', { enum: ['trialing', 'active', 'past_due', 'paused', 'canceled'] }).notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** e.g. "Visa ending 4242" or "PayPal (ann@example.com)" */
    paymentMethod: text('payment_method').notNull().default(''),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** retention discount: offered once per subscription (canUseDiscount) */
    discountUsedAt: timestamp('discount_used_at', { withTimezone: true }),
    discountPercent: integer('discount_percent'),
    discountAmountCents: integer('discount_amount_cents'),
    discountCyclesLeft: integer('discount_cycles_left'),
    /**
     * The provider's time and sequence of the last state applied to this row (SubscriptionState.asOf):
     * a state older than this is ignored (docs/product/billing-events.md). Null: none applied yet.
     */
    providerStateAt: timestamp('provider_state_at', { withTimezone: true }),
    providerStateSequence: integer('provider_state_sequence').notNull().default(0),
    /**
     * Dunning (docs/product/dunning.md), while a payment is due: when it first failed, what is due,
     * the automatic retries made, the provider's next retry and the end of the grace period.
     */
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    pastDueAmountCents: integer('past_due_amount_cents'),
    retriesDone: integer('retries_done').notNull().default(0),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    /** why a canceled subscription ended when the member did not cancel it: `unpaid` (the last retry failed) */
    endedReason: text('ended_reason', { enum: ['unpaid'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_ref_unique').on(t.provider, t.providerRef),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * The retention offers a subscription gets once, ever: `pause` (card pause or PayPal suspend) and
 * `discount`. The row is written before the provider is asked (removed again when the provider
 * refuses), so of two requests racing for the same offer only one reaches the provider.
 */
export const retentionUses = pgTable(
  'retention_uses',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** pause | discount */
    kind: text('kind', { enum: ['pause', 'discount'] }).notNull(),
    userId: integer('user_id').notNull(),
    /** the client's key of the request that used it: a retry of that same request answers as it did */
    clientKey: text('client_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** the provider applied it (null while that request is still at the provider) */
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.kind] })],
);

/** Money that moved (or failed to): one row per provider charge. */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id'),
    orderId: integer('order_id'),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'paypal'] }).notNull(),
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: ['paid', 'failed', 'refunded'] }).notNull(),
    /**
     * what an admin refunded of this charge so far (whole or in part); a refund reserves its amount
     * here before the provider is asked, so two refunds together never pass the amount paid
     */
    refundedCents: integer('refunded_cents').notNull().default(0),
    description: text('description').notNull().default(''),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_provider_ref_unique').on(t.provider, t.providerRef),
    index('invoices_user_idx').on(t.userId, t.id),
  ],
);

/** Why members left (or what they chose instead): the cancel flows; admins read the list. */
export const cancellationFeedback = pgTable(
  'cancellation_feedback',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id'),
    provider: text('provider').notNull(),
    /** month | year */
    cycle: text('cycle').notNull(),
    reason: text('reason').notNull(),
    description: text('description').notNull().default(''),
    /** cancel | pause | discount | upgrade-yearly | upgrade-lifetime | lifetime-checkout */
    outcome: text('outcome').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('cancellation_feedback_created_idx').on(t.createdAt)],
);

/** Provider webhook events already applied: each is applied exactly once, whatever the replays. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Webhook deliveries with a good signature that could not be applied, for admins to see
 * (/admin/webhook-failures). `kind`: `rejected` = the content could not be read (answered 400; nothing
 * was applied), `failed` = an error while applying it (answered with that error, 5xx for an unexpected
 * one, so the provider retries). One row per provider,
 * event id and kind, counting its deliveries; an event whose id cannot be read gets a row each time.
 * No body is kept (events carry names, emails and addresses): only its outline, the keys without
 * their values. `resolved_at`: a later delivery of the same event was applied.
 */
export const webhookFailures = pgTable(
  'webhook_failures',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id'),
    eventType: text('event_type'),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    outline: text('outline'),
    deliveries: integer('deliveries').notNull().default(1),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_failures_event_idx').on(t.provider, t.eventId, t.kind),
    index('webhook_failures_last_idx').on(t.lastAt),
  ],
);

/**
 * The built-in sandbox payment provider's own state (it plays the provider's side: setup intents,
 * payment methods, charges, PayPal orders and subscriptions, its clock), kept apart from ours.
 */
export const sandboxObjects = pgTable(
  'sandbox_objects',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_objects_kind_idx').on(t.kind, t.createdAt)],
);

/**
 * The last number given in each receipt series (`receipt`, `credit_note`). A receipt takes its number
 * by raising `last` in the transaction that records the payment: the row stays locked until that
 * transaction ends, so numbers follow one another, and a rolled-back payment gives its number back
 * (a sequence would lose it, leaving a gap). docs/product/receipts.md
 */
export const receiptCounters = pgTable('receipt_counters', {
  series: text('series', { enum: ['receipt', 'credit_note'] }).primaryKey(),
  last: integer('last').notNull().default(0),
});

/**
 * Receipts and credit notes: one numbered document per payment and per refund, written with the
 * payment (or refund) it stands for and never changed afterwards. What it says (member, seller, item,
 * method) is copied in when it is issued, so a later change of name or address does not rewrite it.
 */
export const receipts = pgTable(
  'receipts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['receipt', 'credit_note'] }).notNull(),
    number: integer('number').notNull(),
    /** what the document stands for, once: `invoice:{id}`, `instalment:{id}`, `refund:{provider}:{ref}` */
    source: text('source').notNull(),
    /** the member (kept when the account is deleted: the document is the academy's record) */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    memberName: text('member_name').notNull(),
    memberEmail: text('member_email').notNull(),
    seller: jsonb('seller').$type<{ name: string; address: string; taxLabel: string; taxPercent: number }>().notNull(),
    item: text('item').notNull(),
    /** negative on a credit note */
    amountCents: integer('amount_cents').notNull(),
    /** the tax the amount includes (0 when the academy charges none) */
    taxCents: integer('tax_cents').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    /** "Visa ending 4242", "PayPal (ann@example.com)" */
    paymentMethod: text('payment_method').notNull().default(''),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'paypal'] }).notNull(),
    invoiceId: integer('invoice_id'),
    orderId: integer('order_id'),
    subscriptionId: integer('subscription_id'),
    /** a credit note: the receipt it refunds */
    refersToId: integer('refers_to_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receipts_number_unique').on(t.kind, t.number),
    uniqueIndex('receipts_source_unique').on(t.source),
    index('receipts_user_idx').on(t.userId, t.issuedAt),
    index('receipts_refers_idx').on(t.refersToId),
  ],
);
