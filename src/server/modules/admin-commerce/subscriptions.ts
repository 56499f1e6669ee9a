import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { AdminSubscriptionRow } from '#shared/admin-commerce';
import type { CancellationRow } from '#shared/billing';
import { formatMoney } from '#shared/money';
import type { Database } from '#server/db/client';
import { cancellationFeedback, subscriptions, users } from '#server/db/schema/index';
import { containing, countAll, pageOfSelect, sortOf } from '#server/modules/admin/index';
import type { UserService } from '#server/modules/users/index';
import { person } from './orders.ts';

function describeDiscount(s: typeof subscriptions.$inferSelect): string | null {
  if (!s.discountCyclesLeft || s.discountCyclesLeft <= 0) return null;
  const n = s.discountCyclesLeft === 1 ? 'the next payment' : `the next ${s.discountCyclesLeft} payments`;
  if (s.discountPercent) return `${s.discountPercent}% off ${n}`;
  if (s.discountAmountCents) return `${formatMoney(s.discountAmountCents, s.currency)} off ${n}`;
  return null;
}

/** The commerce area's subscriptions and the feedback members leave when they cancel one. */
export function createAdminSubscriptions(deps: { db: Database; users: UserService }) {
  const { db } = deps;

  return {
    async subscriptions(
      query: AdminListQuery & { status?: string | undefined; plan?: string | undefined; provider?: string | undefined },
    ): Promise<AdminPage<AdminSubscriptionRow>> {
      const where: SQL[] = [];
      if (query.status) where.push(eq(subscriptions.status, query.status as 'active'));
      if (query.plan) where.push(eq(subscriptions.plan, query.plan as 'monthly'));
      if (query.provider) where.push(eq(subscriptions.provider, query.provider as 'sandbox'));
      if (query.q) {
        const l = containing(query.q);
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

    async cancellations(
      query: AdminListQuery & { reason?: string | undefined; outcome?: string | undefined },
    ): Promise<AdminPage<CancellationRow>> {
      const where: SQL[] = [];
      if (query.reason) where.push(eq(cancellationFeedback.reason, query.reason));
      if (query.outcome) where.push(eq(cancellationFeedback.outcome, query.outcome));
      if (query.q) {
        const l = containing(query.q);
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
  };
}
