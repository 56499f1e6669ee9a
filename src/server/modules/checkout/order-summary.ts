import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { MembershipPlan } from '#shared/commerce';
import type { OrderSummary } from '#shared/checkout';
import { courses, orders, products, subscriptions } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import type { OrderRow } from '#server/modules/payments/index';
import type { CheckoutDeps, CheckoutOrders } from './orders.ts';

/**
 * GET /api/order: one of the member's own orders, or their latest paid one of any kind (a
 * membership, a course) / active subscription
 */
export function createOrderSummary(deps: CheckoutDeps, steps: CheckoutOrders) {
  const { db } = deps;
  const { readOrder } = steps;

  return async function order(user: AuthUser, orderId: number | null): Promise<OrderSummary | null> {
    let row: OrderRow | null = null;
    if (orderId !== null) {
      row = await readOrder(orderId);
      if (!row || row.userId !== user.id) throw notFound();
    } else {
      const [paid] = await db
        .select()
        .from(orders)
        .where(
          and(eq(orders.userId, user.id), inArray(orders.kind, ['membership', 'course']), eq(orders.status, 'paid')),
        )
        .orderBy(desc(orders.id))
        .limit(1);
      row = paid ?? null;
    }
    const [sub] = row
      ? await db
          .select()
          .from(subscriptions)
          .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.orderId, row.id)))
          .limit(1)
      : await db
          .select()
          .from(subscriptions)
          .where(and(eq(subscriptions.userId, user.id), sql`${subscriptions.status} <> 'canceled'`))
          .orderBy(desc(subscriptions.id))
          .limit(1);
    if (!row && !sub) return null;
    const plan = (row?.plan ?? sub?.plan ?? null) as MembershipPlan | null;
    let course: OrderSummary['course'] = null;
    if (row?.kind === 'course') {
      const [bought] = await db
        .select({ title: products.title, slug: courses.slug })
        .from(products)
        .leftJoin(courses, eq(courses.id, products.courseId))
        .where(eq(products.slug, row.productSlug))
        .limit(1);
      course = { title: bought?.title ?? 'Course', url: bought?.slug ? `/courses/${bought.slug}` : '/courses' };
    }
    const method = typeof row?.metadata?.paymentMethod === 'string' ? row.metadata.paymentMethod : '';
    const amountCents = row?.amountCents ?? sub?.priceCents ?? 0;
    return {
      id: row?.id ?? sub?.orderId ?? 0,
      kind: row?.kind ?? 'membership',
      checkout: row?.productSlug ?? sub?.checkoutSlug ?? '',
      plan,
      amount: amountCents / 100,
      amount_cents: amountCents,
      currency: row?.currency ?? sub?.currency ?? 'usd',
      status: row?.status ?? 'paid',
      provider: row?.provider ?? sub?.provider ?? '',
      payment_method: sub?.paymentMethod || method || (row?.provider === 'paypal' ? 'PayPal' : ''),
      lifetime: plan === 'lifetime',
      created_at: (row?.createdAt ?? sub?.createdAt ?? new Date()).toISOString(),
      paid_at: row?.paidAt ? row.paidAt.toISOString() : null,
      trial_ends_at: sub?.trialEndsAt ? sub.trialEndsAt.toISOString() : null,
      next_billing_date:
        sub && sub.status !== 'canceled' && !sub.cancelAtPeriodEnd ? sub.currentPeriodEnd.toISOString() : null,
      subscription_status: sub?.status ?? null,
      course,
    };
  };
}
