import { and, asc, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  WEBHOOK_RETRY_MESSAGES,
  ORDER_MESSAGES,
  spotsBelowSold,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminPlan,
  type AdminPlanInput,
  type AdminProduct,
  type AdminProductInput,
  type AdminRefundResult,
  type AdminSubscriptionRow,
  type AdminWebhookFailureRow,
  type WebhookFailureKind,
} from '#shared/admin-commerce';
import type { CancellationRow } from '#shared/billing';
import { formatMoney } from '#shared/money';
import type { Database } from '#server/db/client';
import {
  cancellationFeedback,
  checkoutPlans,
  courses,
  invoices,
  orders,
  products,
  subscriptions,
  users,
  webhookFailures,
} from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import { countAll, escapeLike, pageOf, pageOfSelect, sortOf } from '#server/modules/admin/index';
import { ProviderError } from '#server/modules/payments/index';
import type { PaymentsService } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';

type OrderRow = typeof orders.$inferSelect;
type PlanRow = typeof checkoutPlans.$inferSelect;
type ProductRow = typeof products.$inferSelect;
type UserBits = { id: number | null; name: string | null; email: string | null };

const person = (u: UserBits) => (u.id === null ? null : { id: u.id, name: u.name ?? '', email: u.email ?? '' });
const like = (q: string) => `%${escapeLike(q)}%`;

function orderRow(o: OrderRow, u: UserBits): AdminOrderRow {
  return {
    id: o.id,
    buyer: person(u),
    kind: o.kind,
    product: o.productSlug,
    plan: o.plan,
    amount_cents: o.amountCents,
    currency: o.currency,
    provider: o.provider,
    provider_ref: o.providerRef,
    status: o.status,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
  };
}

/** the provider charge of a paid one-time order (a subscription's order has none: its invoices are the provider's) */
const chargeRefOf = (o: OrderRow): string | null =>
  typeof o.metadata.chargeRef === 'string' && o.metadata.chargeRef ? o.metadata.chargeRef : null;

export function planDto(r: PlanRow): AdminPlan {
  return {
    slug: r.slug,
    heading: r.heading,
    subheading: r.subheading,
    has_trial: r.hasTrial,
    monthly_title: r.monthlyTitle,
    monthly_price_cents: r.monthlyPriceCents,
    yearly_price_cents: r.yearlyPriceCents,
    lifetime_price_cents: r.lifetimePriceCents,
    monthly_crossed_out_cents: r.monthlyCrossedOutCents,
    yearly_crossed_out_cents: r.yearlyCrossedOutCents,
    lifetime_crossed_out_cents: r.lifetimeCrossedOutCents,
    monthly_sales_tag: r.monthlySalesTag,
    yearly_sales_tag: r.yearlySalesTag,
    lifetime_sales_tag: r.lifetimeSalesTag,
    monthly_trial_days: r.monthlyTrialDays,
    yearly_trial_days: r.yearlyTrialDays,
    active: r.active,
    updated_at: r.updatedAt.toISOString(),
  };
}

function productDto(
  p: ProductRow,
  course: { id: number | null; title: string | null; slug: string | null } | null,
): AdminProduct {
  return {
    slug: p.slug,
    kind: p.kind,
    title: p.title,
    course_id: p.courseId,
    course: course && course.id !== null ? { id: course.id, title: course.title ?? '', slug: course.slug ?? '' } : null,
    level: p.level === 'basic' || p.level === 'pro' ? p.level : null,
    price_cents: p.priceCents,
    list_price_cents: p.listPriceCents,
    spots: p.spots,
    sold: p.sold,
    spots_left: p.spots === null ? null : Math.max(0, p.spots - p.sold),
    active: p.active,
  };
}

function describeDiscount(s: typeof subscriptions.$inferSelect): string | null {
  if (!s.discountCyclesLeft || s.discountCyclesLeft <= 0) return null;
  const n = s.discountCyclesLeft === 1 ? 'the next payment' : `the next ${s.discountCyclesLeft} payments`;
  if (s.discountPercent) return `${s.discountPercent}% off ${n}`;
  if (s.discountAmountCents) return `${formatMoney(s.discountAmountCents, s.currency)} off ${n}`;
  return null;
}

/** The admin console's commerce area. Lists page, sort and search in SQL; every change is audited. */
export function createAdminCommerceService(deps: { db: Database; payments: PaymentsService; users: UserService }) {
  const { db, payments } = deps;

  async function orderDetail(id: number): Promise<AdminOrderDetail> {
    const [row] = await db
      .select({ o: orders, id: users.id, name: users.name, email: users.email })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, id))
      .limit(1);
    if (!row) throw notFound('That order does not exist.');
    const inv = await db.select().from(invoices).where(eq(invoices.orderId, id)).orderBy(asc(invoices.id));
    return {
      ...orderRow(row.o, row),
      failure_message: row.o.failureMessage,
      affiliate: row.o.affiliate,
      payment_method: typeof row.o.metadata.paymentMethod === 'string' ? row.o.metadata.paymentMethod : '',
      invoices: inv.map((i) => ({
        id: i.id,
        amount_cents: i.amountCents,
        status: i.status,
        description: i.description,
        provider_ref: i.providerRef,
        created_at: i.createdAt.toISOString(),
      })),
      refundable: row.o.status === 'paid' && chargeRefOf(row.o) !== null,
    };
  }

  async function planRow(slug: string): Promise<PlanRow> {
    const [row] = await db.select().from(checkoutPlans).where(eq(checkoutPlans.slug, slug)).limit(1);
    if (!row) throw notFound('That checkout plan does not exist.');
    return row;
  }

  async function productWithCourse(slug: string) {
    const [row] = await db
      .select({ p: products, id: courses.id, title: courses.title, slug: courses.slug })
      .from(products)
      .leftJoin(courses, eq(courses.id, products.courseId))
      .where(eq(products.slug, slug))
      .limit(1);
    if (!row) throw notFound('That product does not exist.');
    return productDto(row.p, row);
  }

  return {
    // ---- orders
    async orders(
      query: AdminListQuery & { status?: string | undefined; kind?: string | undefined; provider?: string | undefined },
    ): Promise<AdminPage<AdminOrderRow>> {
      const where: SQL[] = [];
      if (query.status) where.push(eq(orders.status, query.status as OrderRow['status']));
      if (query.kind) where.push(eq(orders.kind, query.kind));
      if (query.provider) where.push(eq(orders.provider, query.provider as OrderRow['provider']));
      if (query.q) {
        const l = like(query.q);
        where.push(
          or(
            ilike(users.name, l),
            ilike(users.email, l),
            ilike(orders.productSlug, l),
            ilike(orders.providerRef, l),
            sql`${orders.metadata}->>'chargeRef' ilike ${l}`,
          )!,
        );
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(query, { created_at: orders.createdAt, amount: orders.amountCents }, 'created_at', 'desc');
      return pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(cond),
        rows: db
          .select({ o: orders, id: users.id, name: users.name, email: users.email })
          .from(orders)
          .leftJoin(users, eq(users.id, orders.userId))
          .where(cond)
          .orderBy(sort.order, desc(orders.id)),
        map: (r) => orderRow(r.o, r),
      });
    },

    order: orderDetail,

    /**
     * Refund a paid order through its provider (idempotency key per order). The order turns refunded
     * and its entitlement is revoked by the provider's charge.refunded event, through the ledger's one
     * webhook dispatch table (the sandbox delivers it at once; a real provider shortly after).
     */
    async refund(actor: Actor, id: number): Promise<AdminRefundResult> {
      const before = await orderDetail(id);
      const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
      if (!order) throw notFound('That order does not exist.');
      if (order.status !== 'paid') throw new AppError(409, ORDER_MESSAGES.notPaid, { order: [ORDER_MESSAGES.notPaid] });
      const chargeRef = chargeRefOf(order);
      if (!chargeRef) throw new AppError(409, ORDER_MESSAGES.noCharge, { order: [ORDER_MESSAGES.noCharge] });
      try {
        await payments.providerNamed(order.provider).refund(chargeRef, `admin-refund:order:${order.id}`);
      } catch (err) {
        if (err instanceof ProviderError)
          throw new AppError(422, `The provider refused the refund: ${err.message}`, { order: [err.message] });
        throw err;
      }
      const after = await orderDetail(id);
      await db.transaction(async (tx) =>
        recordAudit(tx, actor, {
          action: 'order.refund',
          targetType: 'order',
          targetId: id,
          summary: `Refunded order #${id} (${order.productSlug}, ${formatMoney(order.amountCents, order.currency)})`,
          before: { status: before.status },
          after: { status: after.status, charge: chargeRef },
        }),
      );
      return { message: after.status === 'refunded' ? ORDER_MESSAGES.refunded : ORDER_MESSAGES.pending, order: after };
    },

    // ---- subscriptions
    async subscriptions(
      query: AdminListQuery & { status?: string | undefined; plan?: string | undefined; provider?: string | undefined },
    ): Promise<AdminPage<AdminSubscriptionRow>> {
      const where: SQL[] = [];
      if (query.status) where.push(eq(subscriptions.status, query.status as 'active'));
      if (query.plan) where.push(eq(subscriptions.plan, query.plan as 'monthly'));
      if (query.provider) where.push(eq(subscriptions.provider, query.provider as 'sandbox'));
      if (query.q) {
        const l = like(query.q);
        where.push(or(ilike(users.name, l), ilike(users.email, l), ilike(subscriptions.providerRef, l))!);
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(
        query,
        {
          created_at: subscriptions.createdAt,
          period_end: subscriptions.currentPeriodEnd,
          price: subscriptions.priceCents,
        },
        'created_at',
        'desc',
      );
      return pageOfSelect({
        query,
        sort,
        count: db
          .select({ n: countAll })
          .from(subscriptions)
          .leftJoin(users, eq(users.id, subscriptions.userId))
          .where(cond),
        rows: db
          .select({ s: subscriptions, id: users.id, name: users.name, email: users.email })
          .from(subscriptions)
          .leftJoin(users, eq(users.id, subscriptions.userId))
          .where(cond)
          .orderBy(sort.order, desc(subscriptions.id)),
        map: ({ s, ...u }): AdminSubscriptionRow => ({
          id: s.id,
          member: person(u),
          checkout_slug: s.checkoutSlug,
          plan: s.plan,
          status: s.status,
          price_cents: s.priceCents,
          discount: describeDiscount(s),
          current_period_end: s.currentPeriodEnd.toISOString(),
          cancel_at_period_end: s.cancelAtPeriodEnd,
          payment_method: s.paymentMethod,
          provider: s.provider,
          provider_ref: s.providerRef,
          created_at: s.createdAt.toISOString(),
        }),
      });
    },

    // ---- membership plans
    async plans(): Promise<AdminPlan[]> {
      return (await db.select().from(checkoutPlans).orderBy(asc(checkoutPlans.slug))).map(planDto);
    },
    async plan(slug: string) {
      return planDto(await planRow(slug));
    },
    async updatePlan(actor: Actor, slug: string, input: AdminPlanInput): Promise<AdminPlan> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(checkoutPlans).where(eq(checkoutPlans.slug, slug)).for('update');
        if (!row) throw notFound('That checkout plan does not exist.');
        const [updated] = await tx
          .update(checkoutPlans)
          .set({
            heading: input.heading,
            subheading: input.subheading,
            hasTrial: input.has_trial,
            monthlyTitle: input.monthly_title,
            monthlyPriceCents: input.monthly_price_cents,
            yearlyPriceCents: input.yearly_price_cents,
            lifetimePriceCents: input.lifetime_price_cents,
            monthlyCrossedOutCents: input.monthly_crossed_out_cents,
            yearlyCrossedOutCents: input.yearly_crossed_out_cents,
            lifetimeCrossedOutCents: input.lifetime_crossed_out_cents,
            monthlySalesTag: input.monthly_sales_tag,
            yearlySalesTag: input.yearly_sales_tag,
            lifetimeSalesTag: input.lifetime_sales_tag,
            monthlyTrialDays: input.monthly_trial_days,
            yearlyTrialDays: input.yearly_trial_days,
            active: input.active,
            updatedAt: new Date(),
          })
          .where(eq(checkoutPlans.slug, slug))
          .returning();
        const before = planDto(row);
        const after = planDto(updated!);
        await recordAudit(tx, actor, {
          action: 'plan.update',
          targetType: 'checkout_plan',
          targetId: slug,
          summary: `Membership plan "${slug}"`,
          before,
          after,
        });
        return after;
      });
    },

    // ---- courses for sale
    async products(query: AdminListQuery & { active?: string | undefined }): Promise<AdminPage<AdminProduct>> {
      const where: SQL[] = [];
      if (query.active) where.push(eq(products.active, query.active === '1'));
      if (query.q) {
        const l = like(query.q);
        where.push(or(ilike(products.title, l), ilike(products.slug, l), ilike(courses.title, l))!);
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(
        query,
        { title: products.title, price: products.priceCents, sold: products.sold, slug: products.slug },
        'slug',
        'asc',
      );
      return pageOfSelect({
        query,
        sort,
        count: db
          .select({ n: countAll })
          .from(products)
          .leftJoin(courses, eq(courses.id, products.courseId))
          .where(cond),
        rows: db
          .select({ p: products, id: courses.id, title: courses.title, slug: courses.slug })
          .from(products)
          .leftJoin(courses, eq(courses.id, products.courseId))
          .where(cond)
          .orderBy(sort.order, asc(products.slug)),
        map: (r) => productDto(r.p, r),
      });
    },
    product: productWithCourse,
    async updateProduct(actor: Actor, slug: string, input: AdminProductInput): Promise<AdminProduct> {
      if (input.course_id !== null) {
        const [c] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.course_id)).limit(1);
        if (!c) throw new ValidationError({ course_id: ['The course must be chosen from the list.'] });
      }
      await db.transaction(async (tx) => {
        // the row is locked: a purchase raising `sold` waits, so spots never go below what is sold
        const [row] = await tx.select().from(products).where(eq(products.slug, slug)).for('update');
        if (!row) throw notFound('That product does not exist.');
        if (input.spots !== null && input.spots < row.sold)
          throw new ValidationError({ spots: [spotsBelowSold(row.sold)] });
        const [updated] = await tx
          .update(products)
          .set({
            title: input.title,
            courseId: input.course_id,
            level: input.level,
            priceCents: input.price_cents,
            listPriceCents: input.list_price_cents,
            spots: input.spots,
            active: input.active,
          })
          .where(eq(products.slug, slug))
          .returning();
        await recordAudit(tx, actor, {
          action: 'product.update',
          targetType: 'product',
          targetId: slug,
          summary: `Course for sale "${updated!.title}"`,
          before: productDto(row, null),
          after: productDto(updated!, null),
        });
      });
      return productWithCourse(slug);
    },
    /** the courses a tier can open (the product form's list) */
    async courseChoices() {
      return db.select({ id: courses.id, title: courses.title }).from(courses).orderBy(asc(courses.title));
    },

    // ---- cancellations
    async cancellations(
      query: AdminListQuery & { reason?: string | undefined; outcome?: string | undefined },
    ): Promise<AdminPage<CancellationRow>> {
      const where: SQL[] = [];
      if (query.reason) where.push(eq(cancellationFeedback.reason, query.reason));
      if (query.outcome) where.push(eq(cancellationFeedback.outcome, query.outcome));
      if (query.q) {
        const l = like(query.q);
        where.push(
          or(
            ilike(users.name, l),
            ilike(users.email, l),
            ilike(cancellationFeedback.reason, l),
            ilike(cancellationFeedback.description, l),
          )!,
        );
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(
        query,
        {
          created_at: cancellationFeedback.createdAt,
          reason: cancellationFeedback.reason,
          outcome: cancellationFeedback.outcome,
        },
        'created_at',
        'desc',
      );
      return pageOfSelect({
        query,
        sort,
        count: db
          .select({ n: countAll })
          .from(cancellationFeedback)
          .leftJoin(users, eq(users.id, cancellationFeedback.userId))
          .where(cond),
        rows: db
          .select({ f: cancellationFeedback, name: users.name, email: users.email, slug: users.slug, uid: users.id })
          .from(cancellationFeedback)
          .leftJoin(users, eq(users.id, cancellationFeedback.userId))
          .where(cond)
          .orderBy(sort.order, desc(cancellationFeedback.id)),
        map: (r): CancellationRow => ({
          id: r.f.id,
          member: r.uid
            ? { id: r.uid, name: r.name!, email: r.email!, url: deps.users.profileUrl({ slug: r.slug! }) }
            : null,
          provider: r.f.provider,
          cycle: r.f.cycle,
          reason: r.f.reason,
          description: r.f.description,
          outcome: r.f.outcome,
          created_at: r.f.createdAt.toISOString(),
        }),
      });
    },

    // ---- webhook failures: newest delivery first; open ones are what needs a look
    async webhookFailures(
      query: AdminListQuery & { provider?: string | undefined; kind?: string | undefined; state?: string | undefined },
    ): Promise<AdminPage<AdminWebhookFailureRow>> {
      const where: SQL[] = [];
      if (query.provider) where.push(eq(webhookFailures.provider, query.provider));
      if (query.kind) where.push(eq(webhookFailures.kind, query.kind));
      if (query.state)
        where.push(query.state === 'open' ? isNull(webhookFailures.resolvedAt) : isNotNull(webhookFailures.resolvedAt));
      if (query.q) {
        const l = like(query.q);
        where.push(
          or(ilike(webhookFailures.eventId, l), ilike(webhookFailures.eventType, l), ilike(webhookFailures.reason, l))!,
        );
      }
      return pageOf(db, {
        table: webhookFailures,
        where: where.length ? and(...where) : undefined,
        query,
        sorts: { last_at: webhookFailures.lastAt, deliveries: webhookFailures.deliveries },
        defaultSort: 'last_at',
        defaultDir: 'desc',
        tiebreak: desc(webhookFailures.id),
        map: (r): AdminWebhookFailureRow => ({
          id: r.id,
          provider: r.provider,
          event_id: r.eventId,
          event_type: r.eventType,
          kind: r.kind as WebhookFailureKind,
          reason: r.reason,
          outline: r.outline,
          deliveries: r.deliveries,
          first_at: r.firstAt.toISOString(),
          last_at: r.lastAt.toISOString(),
          resolved_at: r.resolvedAt?.toISOString() ?? null,
        }),
      });
    },

    /**
     * an admin applies a failed delivery's event again, read from its provider; a retry that fails
     * is counted on the failure's own row, one that succeeds goes to the audit log
     */
    async retryWebhookFailure(
      actor: Actor,
      id: number,
    ): Promise<{ message: string; outcome: 'applied' | 'duplicate' | 'ignored' }> {
      const { outcome } = await payments.retryWebhookFailure(id);
      await db.transaction(async (tx) =>
        recordAudit(tx, actor, {
          action: 'webhook.retry',
          targetType: 'webhook_failure',
          targetId: id,
          summary: `Retried webhook failure #${id}: ${outcome}`,
          before: null,
          after: { outcome },
        }),
      );
      const message =
        outcome === 'applied'
          ? WEBHOOK_RETRY_MESSAGES.applied
          : outcome === 'duplicate'
            ? WEBHOOK_RETRY_MESSAGES.appliedBefore
            : WEBHOOK_RETRY_MESSAGES.ignored;
      return { message, outcome };
    },
  };
}
export type AdminCommerceService = ReturnType<typeof createAdminCommerceService>;
