import { asc, eq } from 'drizzle-orm';
import type { AdminPlan, AdminPlanInput } from '#shared/admin-commerce';
import type { Database } from '#server/db/client';
import { checkoutPlans } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';

type PlanRow = typeof checkoutPlans.$inferSelect;

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
/** The commerce area's membership plans (the checkouts' prices and wording); every change is audited. */
export function createAdminPlans(deps: { db: Database }) {
  const { db } = deps;

  async function planRow(slug: string): Promise<PlanRow> {
    const [row] = await db.select().from(checkoutPlans).where(eq(checkoutPlans.slug, slug)).limit(1);
    if (!row) throw notFound('That checkout plan does not exist.');
    return row;
  }

  return {
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
  };
}
