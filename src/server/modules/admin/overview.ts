import { and, desc, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AdminOverview } from '#shared/admin';
import type { Database } from '#server/db/client';
import {
  auditLog,
  diagnosticLeads,
  entitlements,
  orders,
  reports,
  subscriptions,
  users,
} from '#server/db/schema/index';
import { toAuditEntry } from './audit.ts';
import { countAll as count } from './list.ts';

/** The console's front page: member, subscription, report, order and lead counts, and the latest changes. */
export async function adminOverview(db: Database): Promise<AdminOverview> {
  const since = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
  const [m] = await db
    .select({ n: count, recent: sql<number>`(count(*) filter (where ${users.createdAt} >= ${since}))::int` })
    .from(users);
  const [subs] = await db
    .select({ n: count })
    .from(subscriptions)
    .where(inArray(subscriptions.status, ['trialing', 'active', 'past_due']));
  const [ment] = await db
    .select({ n: sql<number>`count(distinct ${entitlements.userId})::int` })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.kind, 'mentorship'),
        isNull(entitlements.revokedAt),
        or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
      ),
    );
  const [rep] = await db.select({ n: count }).from(reports).where(eq(reports.status, 'open'));
  const [ord] = await db
    .select({ n: count, cents: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int` })
    .from(orders)
    .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, since)));
  const [leads] = await db.select({ n: count }).from(diagnosticLeads).where(gte(diagnosticLeads.createdAt, since));
  const recent = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(8);
  return {
    members: m?.n ?? 0,
    new_members_30d: m?.recent ?? 0,
    active_subscriptions: subs?.n ?? 0,
    mentorship_students: ment?.n ?? 0,
    open_reports: rep?.n ?? 0,
    paid_orders_30d: ord?.n ?? 0,
    revenue_30d_cents: ord?.cents ?? 0,
    leads_30d: leads?.n ?? 0,
    recent_changes: recent.map(toAuditEntry),
  };
}
