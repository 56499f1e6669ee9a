import { and, desc, eq, gt, inArray, isNull, like, or } from 'drizzle-orm';
import { formatMoney } from '#shared/money';
import {
  subscriptionActions,
  type BillingCourse,
  type BillingMembership,
  type BillingMentorship,
  type BillingSubscription,
} from '#shared/billing';
import type { Database } from '#server/db/client';
import { courses, entitlements, instalmentPlans, mentorships, orders, products, users } from '#server/db/schema/index';
import type { SubscriptionRow } from '#server/modules/payments/index';

// Everything a member has, for the billing page (docs/product/billing-page.md): memberships
// (bought, lifetime, granted), the mentorship (in full, by instalments, granted) and courses.
// Read from the ledger (subscriptions, orders, instalment plans) and the entitlements that give
// access, so what the page shows is what the lessons' locks obey.

/** who granted access, in the member's words: grants come from the academy, never a named admin */
const GRANTED_BY = 'the Backbeat team';

type EntitlementRow = typeof entitlements.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function activeEntitlements(
  db: Database,
  userId: number,
  kind: 'membership' | 'mentorship' | 'course',
): Promise<EntitlementRow[]> {
  const now = new Date();
  return db
    .select()
    .from(entitlements)
    .where(
      and(
        eq(entitlements.userId, userId),
        kind === 'course' ? like(entitlements.kind, 'course:%') : eq(entitlements.kind, kind),
        isNull(entitlements.revokedAt),
        or(isNull(entitlements.endsAt), gt(entitlements.endsAt, now)),
      ),
    )
    .orderBy(entitlements.createdAt, entitlements.id);
}

const orderIdOf = (source: string) => (/^order:(\d+)$/.exec(source) ? Number(source.slice('order:'.length)) : null);

async function ordersById(db: Database, ids: number[]): Promise<Map<number, OrderRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(orders).where(inArray(orders.id, ids));
  return new Map(rows.map((o) => [o.id, o]));
}

/** a granted membership: the end date when it has one */
function granted(e: EntitlementRow): BillingMembership {
  return {
    key: `entitlement:${e.id}`,
    source: 'granted',
    title: 'Membership',
    status: 'granted',
    price: null,
    currency: 'usd',
    cycle: null,
    since: e.startsAt.toISOString(),
    renewsAt: null,
    endsAt: iso(e.endsAt),
    grantedBy: GRANTED_BY,
    paymentMethod: null,
    subscriptionId: null,
    actions: [],
  };
}

export function subscriptionMembership(
  sub: SubscriptionRow,
  dto: BillingSubscription,
  lifetime: boolean,
): BillingMembership {
  const ending = sub.cancelAtPeriodEnd || sub.status === 'canceled';
  const running = sub.status === 'trialing' || sub.status === 'active';
  return {
    key: `subscription:${sub.id}`,
    source: 'subscription',
    title: sub.plan === 'yearly' ? 'Yearly membership' : 'Monthly membership',
    status: ending || sub.status === 'canceled' ? 'ending' : sub.status,
    price: sub.priceCents,
    currency: sub.currency,
    cycle: sub.plan === 'yearly' ? 'year' : 'month',
    since: sub.createdAt.toISOString(),
    renewsAt: running && !ending ? sub.currentPeriodEnd.toISOString() : null,
    endsAt: ending ? sub.currentPeriodEnd.toISOString() : null,
    grantedBy: null,
    paymentMethod: sub.paymentMethod || (dto.provider === 'paypal' ? 'PayPal' : null),
    subscriptionId: sub.id,
    actions: subscriptionActions(dto, lifetime),
  };
}

/**
 * The memberships besides the current subscription: each lifetime purchase, and each access
 * granted rather than bought (an admin grant, the demo). A subscription's own entitlement
 * (`subscription:{id}`) is the subscription itself.
 */
export async function otherMemberships(db: Database, userId: number): Promise<BillingMembership[]> {
  const lifetimeOrders = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, 'membership'),
        eq(orders.plan, 'lifetime'),
        eq(orders.status, 'paid'),
      ),
    )
    .orderBy(orders.id);
  const lifetime: BillingMembership[] = lifetimeOrders.map((o) => ({
    key: `order:${o.id}`,
    source: 'lifetime',
    title: 'Lifetime membership',
    status: 'lifetime',
    price: o.amountCents,
    currency: o.currency,
    cycle: null,
    since: (o.paidAt ?? o.createdAt).toISOString(),
    renewsAt: null,
    endsAt: null,
    grantedBy: null,
    paymentMethod: typeof o.metadata.paymentMethod === 'string' ? o.metadata.paymentMethod : null,
    subscriptionId: null,
    actions: [],
  }));
  const bought = new Set(lifetimeOrders.map((o) => `order:${o.id}`));
  const grants = (await activeEntitlements(db, userId, 'membership')).filter(
    (e) => !e.source.startsWith('subscription:') && !bought.has(e.source),
  );
  return [...lifetime, ...grants.map(granted)];
}

/** The mentorship: how it is paid, what is paid, the next instalment and what remains. */
export async function mentorshipHoldings(db: Database, userId: number): Promise<BillingMentorship[]> {
  const [m] = await db.select().from(mentorships).where(eq(mentorships.studentId, userId)).limit(1);
  if (!m) {
    // access granted without an enrolment (an admin grant)
    return (await activeEntitlements(db, userId, 'mentorship')).slice(0, 1).map((e) => ({
      key: `entitlement:${e.id}`,
      title: 'Mentorship programme',
      paymentLabel: 'Granted',
      status: 'granted' as const,
      mentor: null,
      since: e.startsAt.toISOString(),
      endsAt: iso(e.endsAt),
      paid: 0,
      total: null,
      currency: 'usd',
      schedule: null,
      actions: [],
    }));
  }
  const [mentor] = m.mentorId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, m.mentorId)).limit(1)
    : [];
  const [order] = m.orderId ? await db.select().from(orders).where(eq(orders.id, m.orderId)).limit(1) : [];
  const [plan] = m.orderId
    ? await db
        .select()
        .from(instalmentPlans)
        .where(eq(instalmentPlans.orderId, m.orderId))
        .orderBy(desc(instalmentPlans.id))
        .limit(1)
    : [];
  const base = {
    key: `mentorship:${m.id}`,
    title: 'Mentorship programme',
    mentor: mentor?.name ?? null,
    since: m.createdAt.toISOString(),
    endsAt: null,
  };
  if (!order) {
    const status = m.status === 'active' || m.status === 'completed' ? 'granted' : m.status;
    return [
      { ...base, paymentLabel: 'Granted', status, paid: 0, total: null, currency: 'usd', schedule: null, actions: [] },
    ];
  }
  if (!plan) {
    const paid = order.status === 'paid' || order.status === 'refunded' ? order.amountCents : 0;
    return [
      {
        ...base,
        paymentLabel: `Paid in full: ${formatMoney(order.amountCents, order.currency)}`,
        status: m.status,
        paid,
        total: order.amountCents,
        currency: order.currency,
        schedule: null,
        actions: [],
      },
    ];
  }
  const running = plan.status === 'active' || plan.status === 'past_due';
  const left = Math.max(0, plan.instalmentsTotal - plan.instalmentsPaid);
  return [
    {
      ...base,
      paymentLabel: `${plan.instalmentsTotal} monthly payments of ${formatMoney(plan.amountCents, order.currency)}`,
      status: m.status,
      paid: plan.instalmentsPaid * plan.amountCents,
      total: plan.instalmentsTotal * plan.amountCents,
      currency: order.currency,
      schedule: {
        amount: plan.amountCents,
        paid: plan.instalmentsPaid,
        total: plan.instalmentsTotal,
        nextDueAt: running && left > 0 ? iso(plan.nextDueAt) : null,
        remaining: left * plan.amountCents,
        status: plan.status,
        paymentMethod: plan.paymentMethod || null,
      },
      // the card or PayPal account the remaining instalments are charged to
      actions: running && left > 0 ? ['change-card'] : [],
    },
  ];
}

const TIER: Record<string, string> = { basic: 'Basic', pro: 'Pro' };

/** Courses owned: bought (the tier and price paid) or granted; one entry per course. */
export async function courseHoldings(db: Database, userId: number): Promise<BillingCourse[]> {
  const rows = await activeEntitlements(db, userId, 'course');
  const byOrder = await ordersById(
    db,
    rows.map((e) => orderIdOf(e.source)).filter((id): id is number => id !== null),
  );
  const slugs = [...new Set([...byOrder.values()].map((o) => o.productSlug))];
  const productRows = slugs.length ? await db.select().from(products).where(inArray(products.slug, slugs)) : [];
  const productOf = new Map(productRows.map((p) => [p.slug, p]));
  const refs = rows.map((e) => e.kind.slice('course:'.length));
  const ids = refs.filter((r) => /^\d+$/.test(r)).map(Number);
  const courseRows = refs.length
    ? await db
        .select({ id: courses.id, slug: courses.slug, title: courses.title, area: courses.area })
        .from(courses)
        .where(or(ids.length ? inArray(courses.id, ids) : undefined, inArray(courses.slug, refs)))
    : [];

  const seen = new Map<string, BillingCourse>();
  for (const e of rows) {
    const ref = e.kind.slice('course:'.length);
    const course = courseRows.find((c) => String(c.id) === ref || c.slug === ref);
    const orderId = orderIdOf(e.source);
    const order = orderId !== null ? byOrder.get(orderId) : undefined;
    const bought = order && order.status === 'paid' ? order : undefined;
    const product = bought ? productOf.get(bought.productSlug) : undefined;
    const item: BillingCourse = {
      key: e.kind,
      title: course?.title ?? product?.title ?? ref,
      level: product?.level ? (TIER[product.level] ?? product.level) : null,
      url: course ? (course.area === 'mentorship' ? '/mentorship' : `/courses/${course.slug}`) : null,
      source: bought ? 'bought' : 'granted',
      price: bought ? bought.amountCents : null,
      currency: bought?.currency ?? 'usd',
      since: (bought?.paidAt ?? e.startsAt).toISOString(),
    };
    const prev = seen.get(e.kind);
    // a course bought and also granted shows the purchase
    if (!prev || (prev.source === 'granted' && item.source === 'bought')) seen.set(e.kind, item);
  }
  return [...seen.values()];
}
